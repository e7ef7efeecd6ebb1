// `npm run operator:create -- --username <name> --email <address> [--real-name <中文名>] [--mobile <number>]`:
// creates an activated operator account in the configured database (DATA_DIR or DATABASE_URL), the way to
// make a server's first operator (docs/decisions/020). The password is read from OPERATOR_PASSWORD, else
// from the first line of standard input when it is not a terminal, else asked twice without echo. The
// §5 password rules apply; an existing username or email is refused. It reads the server's configuration
// (backend/env.ts) and refuses a wrong one as the server does. Exit status: 0 created, 1 refused,
// 2 wrong usage or configuration. On the embedded database, run it while the server is stopped (one
// process owns PGlite).
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import accounts from "./domains/accounts/index.ts";
import { openDatabase } from "./db/client.ts";
import { ConfigurationError, readBackendEnv } from "./env.ts";
import { ApiError } from "./http/errors.ts";

const USAGE =
  "usage: npm run operator:create -- --username <name> --email <address> [--real-name <name>] [--mobile <number>]\n" +
  "The password comes from OPERATOR_PASSWORD, or standard input, or is asked for.\n";

const say = (text: string) => process.stdout.write(text);

/** English texts of the message keys (locales/en), so that a refusal reads like the portal's. */
function describe(key: string): string {
  const [file, name] = key.startsWith("errors:") ? ["errors.json", key.slice("errors:".length)] : ["forms.json", key];
  const texts = JSON.parse(readFileSync(path.resolve(process.cwd(), "locales/en", file), "utf8")) as Record<
    string,
    unknown
  >;
  // forms.json nests its keys (validation.password.length); errors.json is flat (MSG_20009).
  const found = name
    .split(".")
    .reduce<unknown>(
      (node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined),
      texts,
    );
  return typeof found === "string" ? found : key;
}

async function readStdinLine(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "";
}

/** Asks on the terminal without echoing what is typed. */
function askHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  say(question);
  stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = () => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      say("\n");
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") return (finish(), resolve(value));
        if (ch === "\u0003" || ch === "\u0004") return (finish(), reject(new Error("cancelled")));
        value = ch === "\u007f" || ch === "\b" ? value.slice(0, -1) : value + ch;
      }
    };
    stdin.on("data", onData);
  });
}

async function readPassword(): Promise<string> {
  if (process.env.OPERATOR_PASSWORD) return process.env.OPERATOR_PASSWORD;
  if (!process.stdin.isTTY) return readStdinLine();
  const first = await askHidden("Password for the new operator: ");
  const again = await askHidden("The same password again: ");
  if (first !== again) {
    process.stderr.write(`${describe("validation.confirmMismatch")}\n`);
    process.exit(1);
  }
  return first;
}

let args;
try {
  args = parseArgs({
    options: {
      username: { type: "string" },
      email: { type: "string" },
      "real-name": { type: "string" },
      mobile: { type: "string" },
      help: { type: "boolean" },
    },
    strict: true,
  }).values;
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : error}\n${USAGE}`);
  process.exit(2);
}
if (args.help) {
  say(USAGE);
  process.exit(0);
}
if (!args.username || !args.email) {
  process.stderr.write(USAGE);
  process.exit(2);
}

let env;
try {
  // The server's own configuration, checked the same way: the database it names is the one written to.
  env = readBackendEnv();
} catch (error) {
  if (!(error instanceof ConfigurationError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}
const password = await readPassword();
const database = await openDatabase(env);
try {
  const created = await accounts.api.createOperator(
    database.db,
    { userName: args.username, email: args.email, password, realName: args["real-name"], mobile: args.mobile },
    new Date(),
  );
  say(`Created operator ${created.userName} (id ${created.userId}), activated: it can log in now.\n`);
} catch (error) {
  if (!(error instanceof ApiError)) throw error;
  const fieldErrors = ((error.data as { fieldErrors?: Record<string, string[]> } | null)?.fieldErrors ?? {}) as Record<
    string,
    string[]
  >;
  const lines = Object.entries(fieldErrors).flatMap(([field, keys]) =>
    keys.map((key) => `  - ${field}: ${describe(key)}`),
  );
  process.stderr.write(
    `The operator was not created:\n${lines.length ? lines.join("\n") : `  - ${describe(`errors:${error.messageKey}`)}`}\n`,
  );
  process.exitCode = 1;
} finally {
  await database.close();
}
