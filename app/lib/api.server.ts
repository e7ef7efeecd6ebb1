import { json, redirect } from "@remix-run/node";
import type { DataOf, PayloadOf, VueapiPath } from "@contract/paths";
import { getLanguage } from "./i18n.server";
import type { Language } from "./i18n";
import { commitSession, flashCookie, getSession, redirectWithFlash, safeReturnTo, type SessionUser } from "./session.server";
import type { Transport } from "./transport.server";
import type { Uploaded, UploadKind } from "@contract/uploads";
import { isMobileUserAgent, vueapi, vueapiUpload, VueapiRedirect, type OutgoingFile, type VueapiFailure, type VueapiResult } from "./vueapi.server";

/**
 * What a loader or action knows about the person asking, and a request-layer client bound to them.
 * Guards (house habit 3) live here too: every loader and action calls one of them itself.
 */
export type Viewer = {
  language: Language;
  token: string | null;
  user: SessionUser | null;
  mobile: boolean;
};

export async function getViewer(request: Request): Promise<Viewer> {
  const [session, language] = await Promise.all([getSession(request), getLanguage(request)]);
  return {
    language,
    token: session.get("token") ?? null,
    user: session.get("user") ?? null,
    mobile: isMobileUserAgent(request.headers.get("User-Agent")),
  };
}

/** SPEC §2: a visitor on a /home path goes to login; the target is stored and restored after login. */
export async function requireUser(request: Request): Promise<Viewer & { user: SessionUser; token: string }> {
  const viewer = await getViewer(request);
  if (viewer.user && viewer.token) return viewer as Viewer & { user: SessionUser; token: string };
  const session = await getSession(request);
  const url = new URL(request.url);
  url.searchParams.delete("_data");
  url.searchParams.delete("index");
  // A form posted to a page is resumed at the page itself.
  session.set("returnTo", url.pathname + url.search);
  throw redirect("/g/main/Login/Logins", { headers: { "Set-Cookie": await commitSession(session) } });
}

export async function requireOperator(request: Request) {
  const viewer = await requireUser(request);
  if (viewer.user.role !== "operator") throw redirect("/g/home/index");
  return viewer;
}

/** SPEC §2: a logged-in user visiting login goes to /g/home/index. */
export async function requireAnonymous(request: Request): Promise<Viewer> {
  const viewer = await getViewer(request);
  if (viewer.user && viewer.token) throw redirect("/g/home/index");
  return viewer;
}

/** Turn the request layer's leave-the-page cases into redirects, clearing the session when it is invalid. */
async function redirectFor(request: Request, error: VueapiRedirect): Promise<Response> {
  if (error.reason === "no-permission") return redirect(error.to);
  const session = await getSession(request);
  session.unset("token");
  session.unset("user");
  if (error.returnTo) session.set("returnTo", safeReturnTo(error.returnTo));
  const headers = new Headers();
  headers.append("Set-Cookie", await commitSession(session));
  if (error.messageKey) headers.append("Set-Cookie", await flashCookie(request, { kind: "error", key: error.messageKey }));
  return redirect(error.to, { headers });
}

export type Api = {
  viewer: Viewer;
  /** For actions: a result whose failure becomes a form error. */
  call<P extends VueapiPath>(path: P, payload: PayloadOf<P>): Promise<VueapiResult<DataOf<P>>>;
  /** For loaders: the data, or a thrown Response that the error boundary renders. */
  load<P extends VueapiPath>(path: P, payload: PayloadOf<P>): Promise<DataOf<P>>;
  /** Streams a file to the backend's upload path of `kind` (docs/decisions/023); answers its upload id. */
  upload(kind: UploadKind, file: OutgoingFile): Promise<VueapiResult<Uploaded>>;
};

export function apiFor(
  request: Request,
  viewer: Viewer,
  options: { portalPage?: boolean; transport?: Transport } = {},
): Api {
  const ctx = { request, token: viewer.token, language: viewer.language, portalPage: options.portalPage, transport: options.transport };
  async function leavingOn<T>(exchange: () => Promise<T>): Promise<T> {
    try {
      return await exchange();
    } catch (error) {
      if (error instanceof VueapiRedirect) throw await redirectFor(request, error);
      throw error;
    }
  }
  const call = <P extends VueapiPath>(path: P, payload: PayloadOf<P>) => leavingOn(() => vueapi(path, payload, ctx));
  return {
    viewer,
    call,
    upload: (kind, file) => leavingOn(() => vueapiUpload(kind, file, ctx)),
    async load(path, payload) {
      const result = await call(path, payload);
      if (result.ok) return result.data;
      throw failureResponse(result);
    },
  };
}

/**
 * A failure as a thrown Response for the error boundary (house habit 4). The page keeps the §8 message of
 * the failure; its HTTP status says what happened: the backend's own error status, 504 when the backend
 * did not answer in time (§8 999, "request timeout"), 502 when it could not be reached, else 500.
 */
export function failureResponse(failure: VueapiFailure): Response {
  return json({ messageKey: failure.messageKey }, { status: failureStatus(failure.status) });
}

export function failureStatus(status: number): number {
  if (status >= 400 && status < 600) return status;
  if (status === 999) return 504;
  if (status === 0) return 502;
  return 500;
}

/**
 * The answer to a form that changed something (a plain POST → redirect): back to `to` with the success
 * flash `successKey`, or, when the backend refused, back to `failureTo` with its message; a server failure
 * goes to the error boundary.
 */
export async function redirectAfter(request: Request, result: VueapiResult<unknown>, to: string, successKey: string, failureTo = to) {
  if (!result.ok) {
    if (result.status >= 500) throw failureResponse(result);
    return redirectWithFlash(request, failureTo, { kind: "error", key: result.messageKey });
  }
  return redirectWithFlash(request, to, { kind: "success", key: successKey });
}

/** A request the route does not understand (house habit 2: an unknown intent), as a Response to throw. */
export const badRequest = () => json({ messageKey: "errors:http.400" }, { status: 400 });

/** A page for something that does not exist (or is not the viewer's), as a Response to throw. */
export const notFound = () => json({ messageKey: "errors:http.404" }, { status: 404 });
