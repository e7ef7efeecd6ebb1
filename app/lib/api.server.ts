import { json, redirect } from "@remix-run/node";
import { Msg } from "#contract/messages.ts";
import { paths, type DataOf, type PayloadOf, type VueapiPath } from "#contract/paths.ts";
import { emptyDataOf } from "./empty-data.ts";
import { getLanguage } from "./i18n.server.ts";
import type { Language } from "./i18n.ts";
import {
  commitSession,
  flashCookie,
  getSession,
  redirectWithFlash,
  safeReturnTo,
  type SessionUser,
} from "./session.server.ts";
import type { Transport } from "./transport.server.ts";
import type { Uploaded, UploadKind } from "#contract/uploads.ts";
import type { DownloadKind, DownloadPayload } from "#contract/downloads.ts";
import {
  isMobileUserAgent,
  vueapi,
  vueapiDownload,
  vueapiUpload,
  VueapiRedirect,
  type OutgoingFile,
  type VueapiFailure,
  type VueapiResult,
} from "./vueapi.server.ts";

/**
 * What a loader or action knows about the person asking, and a request-layer client bound to them.
 * Guards (house habit 3) live here too: every loader and action calls one of them itself.
 */
export type Viewer = {
  language: Language;
  token: string | null;
  user: SessionUser | null;
  mobile: boolean;
  /** An operator between the password and the second step: signed out for every page but that step. */
  pending?: PendingLogin | null;
};

export type PendingLogin = { token: string; user: SessionUser; step: "enrol" | "verify" };

/** The page of each second step (docs/decisions/022). */
export const SECOND_FACTOR_PAGES = {
  enrol: "/g/main/Login/TwoFactorSetup",
  verify: "/g/main/Login/TwoFactor",
} as const;
/**
 * Set by the server entry (server/remix.js) on a form sent from another site's page, which it renders as
 * a GET of the same address: every loader that asks who the viewer is (the root's and every guard)
 * throws the 403 that the error boundary shows (docs/decisions/024).
 */
export const CROSS_ORIGIN_REFUSED = "x-bsn-cross-origin-refused";

export async function getViewer(request: Request): Promise<Viewer> {
  if (request.headers.get(CROSS_ORIGIN_REFUSED) === "1") throw json({ messageKey: "errors:http.403" }, { status: 403 });
  const [session, language] = await Promise.all([getSession(request), getLanguage(request)]);
  const token = session.get("token") ?? null;
  const user = session.get("user") ?? null;
  const step = session.get("secondFactor");
  const pending = step && token && user ? { token, user, step } : null;
  return {
    language,
    token: pending ? null : token,
    user: pending ? null : user,
    mobile: isMobileUserAgent(request.headers.get("User-Agent")),
    pending,
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
  // An operator half-way through the login finishes the second step first.
  const to = viewer.pending ? SECOND_FACTOR_PAGES[viewer.pending.step] : "/g/main/Login/Logins";
  throw redirect(to, { headers: { "Set-Cookie": await commitSession(session) } });
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
  session.unset("secondFactor");
  if (error.returnTo) session.set("returnTo", safeReturnTo(error.returnTo));
  const headers = new Headers();
  headers.append("Set-Cookie", await commitSession(session));
  if (error.messageKey)
    headers.append("Set-Cookie", await flashCookie(request, { kind: "error", key: error.messageKey }));
  return redirect(error.to, { headers });
}

export type Api = {
  viewer: Viewer;
  /** For actions: a result whose failure becomes a form error. */
  call<P extends VueapiPath>(path: P, payload: PayloadOf<P>): Promise<VueapiResult<DataOf<P>>>;
  /**
   * For loaders: the data, or a thrown Response that the error boundary renders. A silent answer (SPEC §8
   * MSG_32029) is no error: the page renders with the path's empty data (app/lib/empty-data.ts).
   */
  load<P extends VueapiPath>(path: P, payload: PayloadOf<P>): Promise<DataOf<P>>;
  /** Streams a file to the backend's upload path of `kind` (docs/decisions/023); answers its upload id. */
  upload(kind: UploadKind, file: OutgoingFile): Promise<VueapiResult<Uploaded>>;
  /** A file from the backend's download path of `kind` (docs/decisions/053), its bytes as they arrive. */
  download<K extends DownloadKind>(kind: K, payload: DownloadPayload<K>): Promise<VueapiResult<Response>>;
};

export function apiFor(
  request: Request,
  viewer: Viewer,
  options: { portalPage?: boolean; transport?: Transport } = {},
): Api {
  const ctx = {
    request,
    token: viewer.token,
    language: viewer.language,
    portalPage: options.portalPage,
    transport: options.transport,
  };
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
    download: (kind, payload) => leavingOn(() => vueapiDownload(kind, payload, ctx)),
    async load(path, payload) {
      const result = await call(path, payload);
      if (result.ok) return result.data;
      if (result.silent) {
        const empty = emptyDataOf(paths[path].data);
        if (empty) return empty.data as DataOf<typeof path>;
      }
      throw failureResponse(result);
    },
  };
}

/**
 * A failure as a thrown Response for the error boundary (house habit 4). The page keeps the §8 message of
 * the failure; its HTTP status says what happened (`failureStatus`).
 */
export function failureResponse(failure: VueapiFailure): Response {
  return json({ messageKey: failure.messageKey }, { status: failureStatus(failure) });
}

/** Business refusals that mean "there is no such thing for you" (an unknown id, another user's record). */
const NOT_FOUND_KEYS: readonly string[] = [Msg.NOT_FOUND, Msg.PRODUCT_NOT_LISTED, Msg.SERVICE_NOT_LISTED].map(
  (k) => `errors:${k}`,
);

/**
 * The HTTP status of a failure (docs/decisions/024): the backend's own error status; 504 when it did not
 * answer in time (§8 999, "request timeout"); 502 when it could not be reached. A refusal the backend
 * answered with code 1 is the request's fault, never a 5xx: not found (also another user's id) is a 404,
 * invalid parameters a 400, any other refusal (the record's state does not allow it; a silent answer
 * where the caller has no page to show) a 409. A failure of the answer itself (data that does not match
 * the contract) is a 500.
 */
export function failureStatus(failure: Pick<VueapiFailure, "status" | "code" | "messageKey">): number {
  const { status } = failure;
  if (status >= 400 && status < 600) return status;
  if (status === 999) return 504;
  if (status === 0) return 502;
  if (failure.code === null) return 500;
  if (NOT_FOUND_KEYS.includes(failure.messageKey)) return 404;
  if (failure.messageKey === `errors:${Msg.INVALID_PARAMS}`) return 400;
  return 409;
}

/**
 * The answer to a form that changed something (a plain POST → redirect): back to `to` with the success
 * flash `successKey`, or, when the backend refused, back to `failureTo` with its message; a server failure
 * goes to the error boundary.
 */
export async function redirectAfter(
  request: Request,
  result: VueapiResult<unknown>,
  to: string,
  successKey: string,
  failureTo = to,
) {
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
