import { createCookieSessionStorage, redirect, type Session } from "@remix-run/node";
import { getEnv } from "./env.server.ts";

/**
 * The signed cookie session (ARCHITECTURE "What does not fit": no database sessions). It holds only the
 * backend token and the user basics the shell shows, far below 4 KB.
 */
export type SessionUser = {
  userId: number;
  userName: string;
  realName: string;
  userType: 1 | 2;
  role: "user" | "operator";
};

/**
 * `secondFactor`: an operator who passed the password but not yet the second step (enrol or verify,
 * docs/decisions/022). Such a session counts as signed out everywhere but the two-factor pages.
 */
type SessionData = { token: string; user: SessionUser; returnTo: string; secondFactor: "enrol" | "verify" };
type FlashData = { flash: { kind: "success" | "error" | "info"; key: string; params?: Record<string, string> } };

let storages:
  | {
      session: ReturnType<typeof createCookieSessionStorage<SessionData>>;
      flash: ReturnType<typeof createCookieSessionStorage<Record<string, never>, FlashData>>;
      carried: ReturnType<typeof createCookieSessionStorage<Record<string, never>, FlashData>>;
    }
  | undefined;

function getStorages() {
  if (storages) return storages;
  const env = getEnv();
  const cookie = {
    path: "/",
    httpOnly: true,
    sameSite: "lax" as const,
    secure: env.cookieSecure,
    secrets: env.sessionSecrets,
  };
  storages = {
    session: createCookieSessionStorage<SessionData>({
      cookie: { name: "__session", maxAge: 60 * 60 * 12, ...cookie },
    }),
    // House habit 5: flash messages travel in their own cookie and are read once by the root loader.
    flash: createCookieSessionStorage<Record<string, never>, FlashData>({ cookie: { name: "__flash", ...cookie } }),
    // A flash carried over a loader's own redirect (redirectKeepingFlash), in a cookie of its own.
    carried: createCookieSessionStorage<Record<string, never>, FlashData>({
      cookie: { name: "__flash_carried", ...cookie },
    }),
  };
  return storages;
}

export function getSession(request: Request) {
  return getStorages().session.getSession(request.headers.get("Cookie"));
}
export function commitSession(session: Session<SessionData>) {
  return getStorages().session.commitSession(session);
}
export function destroySession(session: Session<SessionData>) {
  return getStorages().session.destroySession(session);
}

/**
 * The flash message of this request, read once: the carried one (redirectKeepingFlash) first, then the
 * primary one; `setCookies` clears every cookie that held one.
 */
export async function getFlash(request: Request) {
  const cookies = request.headers.get("Cookie");
  const { flash: primary, carried } = getStorages();
  const setCookies: string[] = [];
  let flash: FlashData["flash"] | null = null;
  for (const storage of [carried, primary]) {
    const session = await storage.getSession(cookies);
    const value = session.get("flash");
    if (!value) continue;
    flash ??= value;
    setCookies.push(await storage.commitSession(session));
  }
  return { flash, setCookies };
}

/**
 * A loader's redirect to its own canonical address (e.g. the wizard's current step) that keeps the flash
 * the request arrived with. With JavaScript, Remix loads the root loader beside the redirecting loader:
 * the root reads and clears the primary flash, whose page is then never shown, and follows the redirect.
 * The flash therefore goes on in a second cookie that the root's clearing does not touch (docs/decisions/027).
 * Without JavaScript the redirect alone answers: the primary cookie stays, and the root reads either once.
 */
export async function redirectKeepingFlash(request: Request, to: string) {
  const { flash } = await getFlash(request);
  if (!flash) return redirect(to);
  const storage = getStorages().carried;
  const session = await storage.getSession();
  session.flash("flash", flash);
  return redirect(to, { headers: { "Set-Cookie": await storage.commitSession(session) } });
}

export async function flashCookie(request: Request, flash: FlashData["flash"]) {
  const storage = getStorages().flash;
  const session = await storage.getSession(request.headers.get("Cookie"));
  session.flash("flash", flash);
  return storage.commitSession(session);
}

/** A redirect that carries a flash message (and any other Set-Cookie given). */
export async function redirectWithFlash(
  request: Request,
  to: string,
  flash: FlashData["flash"],
  extraCookies: string[] = [],
) {
  const headers = new Headers();
  for (const c of extraCookies) headers.append("Set-Cookie", c);
  headers.append("Set-Cookie", await flashCookie(request, flash));
  return redirect(to, { headers });
}

/**
 * Only local paths are followed after login, never another site. The answer is percent-encoded (a Location header
 * carries ASCII only: a hand-typed "?q=区块链" would otherwise fail the redirect with a 500), and checked again once
 * resolved, so that dot segments cannot turn it into another host's address.
 */
export function safeReturnTo(value: unknown, fallback = "/g/home/index"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) {
    return fallback;
  }
  let url: URL;
  try {
    url = new URL(value, "http://local.invalid");
  } catch {
    return fallback;
  }
  const local = url.pathname + url.search + url.hash;
  return url.origin === "http://local.invalid" && !local.startsWith("//") ? local : fallback;
}
