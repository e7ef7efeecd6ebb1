import { expect, inject } from "vitest";
import { demoTotpSecret, passSecondFactor } from "../support/second-factor.ts";
import { mailsIn } from "../support/outbox.ts";

export type Envelope<T = any> = { code: number; message: string; data: T };

/** POST a /vueapi path as the portal does (JSON, language in body). */
export async function call<T = any>(p: string, body: unknown = {}, token?: string): Promise<Envelope<T>> {
  const res = await raw(p, body, token);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  return res.json() as Promise<Envelope<T>>;
}

export function raw(p: string, body: unknown = {}, token?: string, init: RequestInit = {}) {
  return fetch(`${inject("baseUrl")}/vueapi${p}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: typeof body === "string" ? body : JSON.stringify({ userLanguage: "en", ...(body as object) }),
    ...init,
  });
}

/** POSTs `body` to the download path of `kind` (docs/decisions/053), as the portal does; answers the response. */
export function download(kind: string, body: unknown = {}, token?: string, headers: Record<string, string> = {}) {
  return fetch(`${inject("baseUrl")}/vueapi/download/${kind}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify({ userLanguage: "en", ...(body as object) }),
  });
}

/** Streams `bytes` to the upload path of `kind` (docs/decisions/023), as the portal does; answers the response. */
export function uploadRaw(
  kind: string,
  name: string,
  body: BodyInit,
  token?: string,
  headers: Record<string, string> = {},
) {
  return fetch(`${inject("baseUrl")}/vueapi/upload/${kind}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/octet-stream",
      "X-File-Name": encodeURIComponent(name),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body,
    duplex: "half",
  } as RequestInit);
}

/** An upload's envelope. */
export async function upload<T = any>(
  kind: string,
  name: string,
  bytes: Uint8Array,
  token?: string,
): Promise<Envelope<T>> {
  return (await uploadRaw(kind, name, Buffer.from(bytes), token)).json() as Promise<Envelope<T>>;
}

export async function captcha(): Promise<string> {
  const res = await call<{ captchaKey: string }>("/anon/captcha/create");
  expect(res.code).toBe(0);
  return res.data.captchaKey;
}

export const PASSWORD = "Gd47!@kw";

let counter = 0;
export function uniqueName(prefix = "u") {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 5)}`
    .replace(/[^a-z0-9]/gi, "")
    .slice(0, 25);
}

/** The mails to `address` in the test server's outbox, oldest first. */
export const mailsTo = (address: string) => mailsIn(inject("dataDir"), address);

export function registration(userName: string, extra: Record<string, unknown> = {}) {
  return {
    userType: "1",
    userName,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    realName: "测试",
    email: `${userName}@example.com`,
    captcha: inject("testCaptcha"),
    agreeTerms: "on",
    agreePrivacy: "on",
    ...extra,
  };
}

export async function register(userName: string, extra: Record<string, unknown> = {}, licence?: unknown) {
  return call("/anon/user/register", {
    payload: { ...registration(userName, extra), captchaKey: await captcha() },
    licence,
  });
}

export function activationToken(email: string): string {
  const mail = mailsTo(email).find((m) => /UserActivation\?token=/.test(m.text));
  if (!mail) throw new Error(`no activation mail for ${email}`);
  return mail.text.match(/UserActivation\?token=([A-Za-z0-9_-]+)/)![1];
}

/** Logs in; a demo operator passes the second step with its documented demo secret (tests/support/second-factor.ts). */
export async function login(username: string, password = PASSWORD) {
  const res = await call<{ token: string; user: any; secondFactor: "enrol" | "verify" | null }>("/main/user/login", {
    username,
    password,
    captchaKey: await captcha(),
    captcha: inject("testCaptcha"),
  });
  const secret = demoTotpSecret(username);
  if (res.code === 0 && res.data.secondFactor === "verify" && secret) {
    await passSecondFactor(secret, (code) => call("/main/mfa/verify", { code }, res.data.token));
  }
  return res;
}

/** A registered, activated, logged-in user. */
export async function activeUser(prefix = "act") {
  const userName = uniqueName(prefix);
  expect((await register(userName)).code).toBe(0);
  expect((await call("/anon/user/activate", { token: activationToken(`${userName}@example.com`) })).code).toBe(0);
  const res = await login(userName);
  expect(res.code, JSON.stringify(res)).toBe(0);
  return { userName, email: `${userName}@example.com`, token: res.data.token };
}

/** Logs in through the portal's own login form and returns the session cookie. */
export async function portalLogin(userName: string, password: string): Promise<string> {
  const base = inject("baseUrl");
  const html = await (await fetch(`${base}/g/main/Login/Logins`)).text();
  const captchaKey = html.match(/name="captchaKey" value="([^"]+)"/)?.[1];
  expect(captchaKey).toBeTruthy();
  const res = await fetch(`${base}/g/main/Login/Logins`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      username: userName,
      password,
      captchaKey: captchaKey!,
      captcha: inject("testCaptcha"),
    }),
  });
  expect(res.status).toBe(302);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__session="));
  expect(cookie).toBeTruthy();
  return cookie!.split(";")[0];
}
