import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, inject } from "vitest";

export type Envelope<T = any> = { code: number; message: string; data: T };

/** A started server: where it listens, its DATA_DIR (the mail outbox) and the captcha answer it accepts. */
export type Server = { baseUrl: string; dataDir: string; testCaptcha: string };
/** The server of global-setup.ts, which every helper below talks to unless given another. */
export const sharedServer = (): Server => ({ baseUrl: inject("baseUrl"), dataDir: inject("dataDir"), testCaptcha: inject("testCaptcha") });

/** POST a /vueapi path as the portal does (JSON, language in body). */
export async function call<T = any>(p: string, body: unknown = {}, token?: string, server = sharedServer()): Promise<Envelope<T>> {
  const res = await raw(p, body, token, {}, server);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  return res.json() as Promise<Envelope<T>>;
}

export function raw(p: string, body: unknown = {}, token?: string, init: RequestInit = {}, server = sharedServer()) {
  return fetch(`${server.baseUrl}/vueapi${p}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: typeof body === "string" ? body : JSON.stringify({ userLanguage: "en", ...(body as object) }),
    ...init,
  });
}

export async function captcha(server = sharedServer()): Promise<string> {
  const res = await call<{ captchaKey: string }>("/anon/captcha/create", {}, undefined, server);
  expect(res.code).toBe(0);
  return res.data.captchaKey;
}

export const PASSWORD = "Gd47!@kw";

let counter = 0;
export function uniqueName(prefix = "u") {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 5)}`.replace(/[^a-z0-9]/gi, "").slice(0, 25);
}

export type Mail = { to: string; subject: string; text: string };
export function mailsTo(address: string, server = sharedServer()): Mail[] {
  const dir = path.join(server.dataDir, "outbox");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as Mail)
    .filter((m) => m.to.toLowerCase() === address.toLowerCase());
}

export function registration(userName: string, extra: Record<string, unknown> = {}, server = sharedServer()) {
  return {
    userType: "1",
    userName,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    realName: "测试",
    email: `${userName}@example.com`,
    captcha: server.testCaptcha,
    agreeTerms: "on",
    agreePrivacy: "on",
    ...extra,
  };
}

export async function register(userName: string, extra: Record<string, unknown> = {}, licence?: unknown, server = sharedServer()) {
  return call("/anon/user/register", { payload: { ...registration(userName, extra, server), captchaKey: await captcha(server) }, licence }, undefined, server);
}

export function activationToken(email: string, server = sharedServer()): string {
  const mail = mailsTo(email, server).find((m) => /UserActivation\?token=/.test(m.text));
  if (!mail) throw new Error(`no activation mail for ${email}`);
  return mail.text.match(/UserActivation\?token=([A-Za-z0-9_-]+)/)![1];
}

export async function login(username: string, password = PASSWORD, server = sharedServer()) {
  return call<{ token: string; user: any }>("/main/user/login", { username, password, captchaKey: await captcha(server), captcha: server.testCaptcha }, undefined, server);
}

/** A registered, activated, logged-in user. */
export async function activeUser(prefix = "act", server = sharedServer()) {
  const userName = uniqueName(prefix);
  expect((await register(userName, {}, undefined, server)).code).toBe(0);
  expect((await call("/anon/user/activate", { token: activationToken(`${userName}@example.com`, server) }, undefined, server)).code).toBe(0);
  const res = await login(userName, PASSWORD, server);
  expect(res.code, JSON.stringify(res)).toBe(0);
  return { userName, email: `${userName}@example.com`, token: res.data.token };
}
