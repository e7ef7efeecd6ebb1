import { readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { expect } from "./fixtures.ts";
import { demoTotpSecret, passSecondFactor } from "../tests/support/second-factor.ts";
import {
  CAPTCHA,
  createActiveUser,
  logIn,
  moreTimeForTheNextCode,
  PASSWORD,
  signInOverHttp,
  uniqueUser,
} from "./support.ts";

/** Shared by the service specs: the demo operator, the /vueapi API and fixture services. */
export const OPERATOR = { userName: "demooperator", password: "Demo12!@pass" };

export async function api(request: APIRequestContext, p: string, data: unknown, token?: string) {
  const res = await request.post(`/vueapi${p}`, { data, headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const body = (await res.json()) as { code: number; message: string; data: any };
  expect(body.code, `${p} ${JSON.stringify(body)}`).toBe(0);
  return body.data;
}

/** Logs in through the API (the test captcha); answers the bearer token. A demo operator also passes the second step. */
export async function apiToken(request: APIRequestContext, userName: string, password = PASSWORD): Promise<string> {
  const secret = demoTotpSecret(userName);
  const saved = secret ? savedOperator().token : undefined;
  if (saved) {
    const res = await request.post("/vueapi/main/getClientInfo", {
      data: {},
      headers: { Authorization: `Bearer ${saved}` },
    });
    if (((await res.json()) as { code: number }).code === 0) return saved;
  }
  const captcha = await api(request, "/anon/captcha/create", {});
  const login = await api(request, "/main/user/login", {
    username: userName,
    password,
    captchaKey: captcha.captchaKey,
    captcha: CAPTCHA,
  });
  if (login.secondFactor === "verify" && secret) {
    await passSecondFactor(
      secret,
      async (code) => {
        const res = await request.post("/vueapi/main/mfa/verify", {
          data: { code },
          headers: { Authorization: `Bearer ${login.token}` },
        });
        return (await res.json()) as { code: number; message: string };
      },
      Date.now,
      true,
      moreTimeForTheNextCode,
    );
    saveOperator({ token: login.token as string });
  }
  return login.token as string;
}

/**
 * What a /test/services fixture books on each city node unless a spec asks for more: the whole run shares one
 * catalogue, and every running service holds its TPS and capacity until the run ends (§8 "Insufficient
 * resources"). At the fixture's own defaults (100 TPS, 50 GB) the fixtures alone filled Beijing's 3,000 TPS,
 * then its 2,000 GB, and the wizard's own deployments late in the run failed.
 */
export const FIXTURE_BOOKING = { tps: 10, capacityGb: 10 };

/**
 * A fresh publisher with a complete service version made by the tests-only /test/services path (FIXTURE_BOOKING):
 * FISCO BCOS with Solidity packages that really deploy, unless a spec about Fabric asks for `framework: "fabric"`
 * (docs/decisions/052).
 */
export async function publisherWithService(
  request: APIRequestContext,
  prefix: string,
  testInfo: Parameters<typeof uniqueUser>[0],
  service: Record<string, unknown>,
) {
  const user = await createActiveUser(request, uniqueUser(testInfo, prefix));
  const token = await apiToken(request, user.userName);
  const name = `${prefix} ${uniqueUser(testInfo, "")}`.slice(0, 40);
  const created = await api(
    request,
    "/test/services",
    { name, framework: "fisco", ...FIXTURE_BOOKING, ...service },
    token,
  );
  return { user, token, name, ...(created as { appId: number; appVerId: number }) };
}

/**
 * The demo operator's session and token of this run, shared by the workers through a file in the run's
 * data directory. An operator's login takes a TOTP code, and a code opens one login per 30-second step
 * (docs/decisions/022), so specs that act as the operator reuse one login instead of logging in again each
 * time (e2e/guards.spec.ts and e2e/operator-auth.spec.ts test the login itself). A session or token that
 * has ended is replaced by a new login.
 */
type OperatorLogin = { cookies?: Awaited<ReturnType<BrowserContext["cookies"]>>; token?: string };
const operatorFile = () => path.join(process.env.E2E_DATA_DIR ?? "", "e2e-demo-operator.json");
function savedOperator(): OperatorLogin {
  try {
    return JSON.parse(readFileSync(operatorFile(), "utf8")) as OperatorLogin;
  } catch {
    return {};
  }
}
function saveOperator(update: OperatorLogin) {
  const file = operatorFile();
  writeFileSync(`${file}.${process.pid}`, JSON.stringify({ ...savedOperator(), ...update }));
  renameSync(`${file}.${process.pid}`, file);
}

export async function logInAs(page: Page, userName: string, password: string) {
  await page.context().clearCookies();
  const saved = demoTotpSecret(userName) ? savedOperator().cookies : undefined;
  if (saved) {
    await page.context().addCookies(saved);
    await page.goto("/g/home/index");
    if (new URL(page.url()).pathname === "/g/home/index") return;
    await page.context().clearCookies();
  }
  if (demoTotpSecret(userName)) await logIn(page, userName, password);
  else await signInOverHttp(page, userName, password);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  if (demoTotpSecret(userName))
    saveOperator({ cookies: (await page.context().cookies()).filter((c) => c.name === "__session") });
}

/** An operator's review queue narrowed to one service's name (other tests' submissions may fill its first page). */
export const reviewQueue = (queue: "initial" | "final", name: string) =>
  `/g/home/operations/ServiceReviews?${new URLSearchParams({ queue, name })}`;
