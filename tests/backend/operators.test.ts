import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import accounts from "#backend/domains/accounts/index.ts";
import { readBackendEnv } from "#backend/env.ts";
import { createVueapi } from "#backend/index.ts";
import { ApiError } from "#backend/http/errors.ts";
import { callVueapi, DEMO_PASSWORD, inProcessVueapi, loginToken } from "./in-process.ts";

/**
 * The first operator of a server (docs/decisions/020): no demo account exists without DEMO=1, and
 * `npm run operator:create` makes an operator under the §5 rules (accounts.api.createOperator).
 */
const service = inProcessVueapi("operators", { TEST_CAPTCHA: "OPS1", JOBS_INTERVAL_MS: "0" });
const root = path.resolve(__dirname, "../..");
const unique = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.slice(0, 20);

/** The field errors of a refused createOperator. */
async function refusal(input: Parameters<typeof accounts.api.createOperator>[1]) {
  try {
    await accounts.api.createOperator(service.services.db, input, new Date());
  } catch (error) {
    if (error instanceof ApiError)
      return {
        message: error.messageKey,
        fieldErrors: (error.data as { fieldErrors: Record<string, string[]> }).fieldErrors,
      };
    throw error;
  }
  throw new Error("createOperator accepted it");
}

describe("demo accounts only with DEMO=1", () => {
  it("a database started without DEMO has no demo account", async () => {
    for (const username of ["demooperator", "demoperson", "democompany", "demopartner"]) {
      const captchaKey = (await callVueapi(service, "/anon/captcha/create")).data.captchaKey;
      const login = await callVueapi(service, "/main/user/login", {
        username,
        password: DEMO_PASSWORD,
        captchaKey,
        captcha: "OPS1",
      });
      // Unknown and wrong password answer alike (Hardening 12): the demo accounts do not exist.
      expect(login, username).toMatchObject({ code: 1, message: "MSG_20006" });
    }
  });
});

describe("accounts.api.createOperator", () => {
  it("creates an activated operator who can log in and work in the operations area", async () => {
    const userName = unique("ops");
    const created = await accounts.api.createOperator(
      service.services.db,
      { userName, email: `${userName}@example.com`, password: "Op47!@kwz" },
      new Date(),
    );
    expect(created.userName).toBe(userName);
    const token = await loginToken(service, userName, "Op47!@kwz");
    expect((await callVueapi(service, "/main/getClientInfo", {}, token)).data).toMatchObject({
      userName,
      role: "operator",
      realName: "运维人员",
    });
    expect(
      await callVueapi(service, "/ops/paymentReviews/list", { page: { pageSize: 10, pageIndex: 1 } }, token),
    ).toMatchObject({ code: 0 });
  });

  it("refuses a username or email already registered, whatever the case", async () => {
    const userName = unique("opx");
    await accounts.api.createOperator(
      service.services.db,
      { userName, email: `${userName}@example.com`, password: "Op47!@kwz" },
      new Date(),
    );
    expect(
      await refusal({ userName: userName.toUpperCase(), email: `other${userName}@example.com`, password: "Op47!@kwz" }),
    ).toEqual({
      message: "MSG_20009",
      fieldErrors: { userName: ["errors:MSG_20009"] },
    });
    expect(
      await refusal({ userName: unique("opy"), email: `${userName.toUpperCase()}@EXAMPLE.com`, password: "Op47!@kwz" }),
    ).toEqual({
      message: "MSG_20010",
      fieldErrors: { email: ["errors:MSG_20010"] },
    });
  });

  it("applies the §5 rules: password classes and length, no username inside, no default password or keyboard run", async () => {
    const userName = unique("opz");
    const email = `${userName}@example.com`;
    const cases: [string, string][] = [
      ["Op4!", "validation.password.length"],
      ["Opqrstuv12", "validation.password.classes"],
      [`${userName}1!2@`, "validation.password.containsUsername"],
      ["Demo12!@pass", "validation.password.default"],
      ["Qwer12!@", "validation.password.sequence"],
    ];
    for (const [password, message] of cases) {
      expect((await refusal({ userName, email, password })).fieldErrors.password, password).toContain(message);
    }
    expect(
      (await refusal({ userName: "1bad", email: "not-an-email", password: "Op47!@kwz", realName: "Bob 张" }))
        .fieldErrors,
    ).toEqual({
      userName: ["validation.username.format"],
      email: ["validation.email.format"],
      realName: ["validation.realName.format"],
    });
  });
});

describe("npm run operator:create", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-operator-cli-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const cli = (args: string[], options: { password?: string; input?: string } = {}) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: undefined,
      DATA_DIR: dataDir,
      NODE_ENV: "test",
      OPERATOR_PASSWORD: options.password,
    };
    const run = spawnSync(
      process.execPath,
      [path.join(root, "node_modules/tsx/dist/cli.mjs"), "backend/operator-cli.ts", ...args],
      {
        cwd: root,
        env,
        input: options.input ?? "",
        encoding: "utf8",
        timeout: 90_000,
      },
    );
    return { status: run.status, out: run.stdout + run.stderr };
  };

  it("creates the operator from OPERATOR_PASSWORD or standard input and refuses an existing username", async () => {
    const first = cli(["--username", "firstops", "--email", "firstops@example.com"], { password: "Op47!@kwz" });
    expect(first, first.out).toMatchObject({ status: 0 });
    expect(first.out).toContain("Created operator firstops");
    const again = cli(["--username", "FirstOps", "--email", "second@example.com"], { input: "Op47!@kwz\n" });
    expect(again.status, again.out).toBe(1);
    expect(again.out).toContain("userName: This account name is already registered.");
    const weak = cli(["--username", "secondops", "--email", "second@example.com"], { input: "secondops12!@\n" });
    expect(weak.status, weak.out).toBe(1);
    expect(weak.out).toContain("password: The password must not contain your username.");
    expect(cli(["--username", "thirdops"]).status).toBe(2);

    // The server started on that database lets the operator in; it has no demo account.
    const server = await createVueapi(
      readBackendEnv({ DATA_DIR: dataDir, NODE_ENV: "test", TEST_CAPTCHA: "CLI1", JOBS_INTERVAL_MS: "0" }),
    );
    try {
      const token = await loginToken(server, "firstops", "Op47!@kwz");
      expect((await callVueapi(server, "/main/getClientInfo", {}, token)).data).toMatchObject({ role: "operator" });
      const captchaKey = (await callVueapi(server, "/anon/captcha/create")).data.captchaKey;
      expect(
        await callVueapi(server, "/main/user/login", {
          username: "demooperator",
          password: DEMO_PASSWORD,
          captchaKey,
          captcha: "CLI1",
        }),
      ).toMatchObject({ message: "MSG_20006" });
    } finally {
      await server.close();
    }
    // Four runs of the command, each opening the embedded database (the first creates it).
  }, 240_000);
});
