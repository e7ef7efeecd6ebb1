import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as z from "zod";
import { chosenPaymentProvider, PAYMENT_PROVIDERS } from "#contract/payments-codes.ts";

/**
 * The portal's environment, validated once at start (house habit 6). Nothing here reaches the browser:
 * what the browser may see is whitelisted in `publicEnv`.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z.string().url().optional(),
  /** Another server speaking the /vueapi protocol; unset = the backend in this process. */
  VUEAPI_URL: z.string().url().optional(),
  /** How long one /vueapi call may take, in ms (SPEC §7: 180000); then the page shows the time-out message. */
  VUEAPI_TIMEOUT_MS: z.coerce.number().int().min(1).max(2_147_483_647).default(180_000),
  /** How people reach this server (as the backend reads it, backend/env.ts): the endpoints and guides show it. */
  PUBLIC_URL: z.string().url().optional(),
  /** Comma-separated: the first signs, all verify (rotation). */
  SESSION_SECRET: z.string().min(1).optional(),
  /** Secure cookies; defaults to on in production. Set to 0 to serve plain HTTP on a trusted network. */
  COOKIE_SECURE: z.enum(["0", "1"]).optional(),
  /** Links to user manuals and the source repository shown in the top bar and developer pages. */
  /** SPEC §9 static document links: the DDC vault document, linked from the DDC pages (docs/decisions/045). */
  DDC_VAULT_URL: z.string().default("/g/main/documentation?page=ddc"),
  USER_MANUAL_URL: z.string().default("/g/main/documentation?page=getting-started"),
  /** The product's source repository (the developer community's entry, opened in a new window); unset: no entry. */
  SOURCE_REPOSITORY_URL: z.string().url().optional(),
  /** The demo and the payment provider, read as the backend reads them (backend/env.ts), for the test-mode banner. */
  DEMO: z.enum(["0", "1"]).optional(),
  SEED_DEMO: z.enum(["0", "1"]).optional(),
  PAYMENT_PROVIDER: z.enum(PAYMENT_PROVIDERS).optional(),
  /** The chains on nodes by URL, read as the backend reads them (backend/env.ts), for the operators' chain nodes page. */
  CHAIN_NODES: z.string().optional(),
  CHAIN_RPC_URL: z.string().optional(),
});

export type PortalEnv = z.infer<typeof envSchema> & {
  sessionSecrets: string[];
  cookieSecure: boolean;
  /** The sandbox takes the payments (docs/decisions/020): every page says "test mode — no real money". */
  testMode: boolean;
  /** The chains run on nodes by URL (CHAIN_NODES or CHAIN_RPC_URL): the operations area shows their page (ADR 094). */
  chainsOnNodes: boolean;
};

let cached: PortalEnv | undefined;

export function readSessionSecrets(
  raw: Pick<z.infer<typeof envSchema>, "SESSION_SECRET" | "DATABASE_URL" | "DATA_DIR">,
): string[] {
  if (raw.SESSION_SECRET) {
    const secrets = raw.SESSION_SECRET.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (secrets.length > 0) return secrets;
  }
  if (raw.DATABASE_URL) {
    // Several processes may share that database: each would invent its own secret and reject the others' cookies.
    throw new Error("SESSION_SECRET is required when DATABASE_URL is set (several portal processes must share it).");
  }
  const dir = path.resolve(raw.DATA_DIR);
  const file = path.join(dir, "session-secret");
  if (existsSync(file)) {
    const kept = readFileSync(file, "utf8").trim();
    if (kept) return [kept];
  }
  mkdirSync(dir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  try {
    // Created exclusively: two processes starting at once on a new DATA_DIR keep the first one's secret (the
    // other is then refused by the DATA_DIR lock, docs/decisions/017-data-dir-lock.md).
    writeFileSync(file, secret + "\n", { mode: 0o600, flag: existsSync(file) ? "w" : "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const theirs = readFileSync(file, "utf8").trim();
    if (theirs) return [theirs];
  }
  chmodSync(file, 0o600);
  return [secret];
}

export function getEnv(): PortalEnv {
  if (cached) return cached;
  // An empty variable counts as unset.
  const present = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw Object.assign(new Error(`Invalid environment: ${detail}`), { name: "ConfigurationError" });
  }
  const raw = parsed.data;
  cached = {
    ...raw,
    sessionSecrets: readSessionSecrets(raw),
    cookieSecure: raw.COOKIE_SECURE ? raw.COOKIE_SECURE === "1" : raw.NODE_ENV === "production",
    testMode:
      chosenPaymentProvider({
        nodeEnv: raw.NODE_ENV,
        demo: (raw.DEMO ?? raw.SEED_DEMO) === "1",
        paymentProvider: raw.PAYMENT_PROVIDER,
      }) === "sandbox",
    chainsOnNodes: !!(raw.CHAIN_NODES || raw.CHAIN_RPC_URL),
  };
  return cached;
}

/** Test hook: forget the validated environment. */
export function resetEnvForTests() {
  cached = undefined;
}
