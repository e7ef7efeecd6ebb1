import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "./fixtures";
import { demoTotpSecret, passSecondFactor } from "../tests/support/second-factor";
import { CAPTCHA, createActiveUser, logIn, PASSWORD, uniqueUser } from "./support";

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
  const captcha = await api(request, "/anon/captcha/create", {});
  const login = await api(request, "/main/user/login", { username: userName, password, captchaKey: captcha.captchaKey, captcha: CAPTCHA });
  const secret = demoTotpSecret(userName);
  if (login.secondFactor === "verify" && secret) {
    await passSecondFactor(secret, async (code) => {
      const res = await request.post("/vueapi/main/mfa/verify", { data: { code }, headers: { Authorization: `Bearer ${login.token}` } });
      return (await res.json()) as { code: number; message: string };
    });
  }
  return login.token as string;
}

/** A fresh publisher with a complete service version made by the tests-only /test/services path. */
export async function publisherWithService(request: APIRequestContext, prefix: string, testInfo: Parameters<typeof uniqueUser>[0], service: Record<string, unknown>) {
  const user = await createActiveUser(request, uniqueUser(testInfo, prefix));
  const token = await apiToken(request, user.userName);
  const name = `${prefix} ${uniqueUser(testInfo, "")}`.slice(0, 40);
  const created = await api(request, "/test/services", { name, ...service }, token);
  return { user, token, name, ...(created as { appId: number; appVerId: number }) };
}

export async function logInAs(page: Page, userName: string, password: string) {
  await page.context().clearCookies();
  await logIn(page, userName, password);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
}

