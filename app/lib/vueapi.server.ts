import {
  CLIENT_ADDRESS_HEADER,
  envelopeSchema,
  fieldErrorsSchema,
  ResponseCode,
  type FieldErrors,
} from "#contract/envelope.ts";
import { Msg, SESSION_INVALID_KEYS } from "#contract/messages.ts";
import { paths, PORTAL_CODE_PATHS, type DataOf, type PayloadOf, type VueapiPath } from "#contract/paths.ts";
import { refusedTextErrors, refusedTextFields } from "#contract/text.ts";
import { PERMISSION_REFUSED } from "#contract/team-roles.ts";
import { FILE_NAME_HEADER, uploadedSchema, uploadPath, type Uploaded, type UploadKind } from "#contract/uploads.ts";
import { downloadPath, type DownloadKind, type DownloadPayload } from "#contract/downloads.ts";
import type * as z from "zod";
import { getEnv } from "./env.server.ts";
import type { Language } from "./i18n.ts";
import { defaultTransport, inProcessJsonCall, vueapiBase, type Transport } from "./transport.server.ts";

/**
 * The request layer (SPEC §7, §8; ARCHITECTURE house habit 8). Every loader and action reaches the
 * /vueapi service through `vueapi()` and nothing else: base URL, fixed headers, language, timeout
 * combined with the incoming request's abort signal, the contract's schema for the answer, and every
 * §8 case mapped here.
 */
/** SPEC §7's timeout: the default of VUEAPI_TIMEOUT_MS (app/lib/env.server.ts). */
export const REQUEST_TIMEOUT_MS = 180_000;

export type CallContext = {
  /** The incoming request: its abort signal, its URL (to save the location) and user agent. */
  request: Request;
  token?: string | null;
  language: Language;
  /** The page is a portal (public) page: SPEC §7 portalCode. */
  portalPage?: boolean;
  /** SPEC §7: the client-code header is also sent when requested. */
  clientCode?: boolean;
  transport?: Transport;
  /** Overrides VUEAPI_TIMEOUT_MS for this call. */
  timeoutMs?: number;
};

/** A failure the caller shows: a translated message (i18n key) and, for forms, field errors. */
export type VueapiFailure = {
  ok: false;
  /** i18n key with its namespace, e.g. "errors:MSG_20006" or "errors:http.500". */
  messageKey: string;
  fieldErrors: FieldErrors;
  /** SPEC §8 MSG_32029: show nothing. */
  silent: boolean;
  code: number | null;
  status: number;
  /** The wait the backend named (a rate limit's or a resend wait's `data.retryAfterSeconds`), in seconds. */
  retryAfterSeconds?: number;
  /** The values the message names (`data.messageParams`: a spending limit, the bill sent to finance; ADR 080). */
  params?: Record<string, string>;
};
export type VueapiResult<T> = { ok: true; data: T } | VueapiFailure;

/** Thrown by the layer for §8 cases that leave the page: the caller lets it propagate. */
export class VueapiRedirect extends Error {
  constructor(
    readonly to: string,
    readonly reason: "no-permission" | "session-invalid",
    readonly messageKey: string | null,
    readonly returnTo: string | null,
  ) {
    super(`vueapi redirect to ${to}`);
  }
}

export const HTTP_MESSAGE_STATUSES = [400, 401, 403, 404, 429, 500, 502, 503, 504] as const;

/** SPEC §8 HTTP: a status's message key; other failures show a generic server error. */
export function httpMessageKey(status: number): string {
  return (HTTP_MESSAGE_STATUSES as readonly number[]).includes(status)
    ? `errors:http.${status}`
    : "errors:http.generic";
}

const MOBILE_UA = /Android|iPhone|iPad|iPod|Mobile|HarmonyOS|Windows Phone/i;
export function isMobileUserAgent(ua: string | null): boolean {
  return !!ua && MOBILE_UA.test(ua);
}

/** The location saved on session loss: only a /g/home page (SPEC §8). */
export function savedLocation(request: Request): string | null {
  const url = new URL(request.url);
  url.searchParams.delete("_data");
  url.searchParams.delete("index");
  if (!url.pathname.startsWith("/g/home")) return null;
  return url.pathname + url.search;
}

export function buildHeaders(path: string, ctx: CallContext): Headers {
  const headers = new Headers({
    "Content-Type": "application/json",
    Accept: "application/json",
    // SPEC §7 fixed headers.
    "X-Requested-With": "XMLHttpRequest",
    "X-Api-Mode": "portal",
    userLanguage: ctx.language,
  });
  const mobile = isMobileUserAgent(ctx.request.headers.get("User-Agent"));
  if (mobile || path === "/main/user/login" || ctx.clientCode) {
    headers.set("clientCode", mobile ? "portal-h5" : "portal-pc");
  }
  if (ctx.token) headers.set("Authorization", `Bearer ${ctx.token}`);
  // The end user's address, as the server entry wrote it on the incoming request (docs/decisions/021).
  const address = ctx.request.headers.get(CLIENT_ADDRESS_HEADER);
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
  return headers;
}

export function buildBody(path: string, payload: unknown, ctx: CallContext): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...(payload as Record<string, unknown> | undefined),
    userLanguage: ctx.language,
  };
  if (ctx.portalPage && PORTAL_CODE_PATHS.includes(path)) {
    const page = body.page as { condition?: Record<string, unknown> } | undefined;
    if (page && typeof page === "object") {
      body.page = { ...page, condition: { ...(page.condition ?? {}), portalCode: 1 } };
    } else {
      body.portalCode = 1;
    }
  }
  return body;
}

const ROLE_REFUSALS: readonly string[] = Object.values(PERMISSION_REFUSED);
const isRoleRefusal = (message: string) => ROLE_REFUSALS.includes(message);

function failure(messageKey: string, init: Partial<VueapiFailure> = {}): VueapiFailure {
  return { ok: false, messageKey, fieldErrors: {}, silent: false, code: null, status: 200, ...init };
}

/**
 * Call a /vueapi path. Returns the parsed `data`, or a failure to show; throws VueapiRedirect for code 4
 * and for an invalid session (the route helpers turn it into a redirect with the session cleared).
 */
export async function vueapi<P extends VueapiPath>(
  path: P,
  payload: PayloadOf<P>,
  ctx: CallContext,
): Promise<VueapiResult<DataOf<P>>> {
  // Text the database cannot keep is the caller's field error, as the backend would answer it (also when
  // VUEAPI_URL points at a server that does not check): docs/decisions/024.
  const refused = refusedTextFields(payload);
  if (refused.length > 0) {
    return failure(`errors:${Msg.INVALID_PARAMS}`, {
      code: ResponseCode.FAIL,
      status: 400,
      fieldErrors: refusedTextErrors(refused),
    });
  }
  const dataSchema = paths[path].data as unknown as z.ZodType<DataOf<P>>;
  return exchange(
    path,
    { headers: buildHeaders(path, ctx), body: JSON.stringify(buildBody(path, payload, ctx)) },
    dataSchema,
    ctx,
  );
}

/** A file to upload: its name, declared type and bytes as they arrive. */
export type OutgoingFile = { name: string; type: string; body: ReadableStream<Uint8Array> };

/**
 * Streams a file to the backend's upload path of `kind` (docs/decisions/023): the bytes as the body,
 * never held whole here; answers the upload id the JSON call then names the file by, or a failure (413
 * for a file over the kind's limit, the reason at `fieldErrors.file` for a refused content).
 */
export async function vueapiUpload(
  kind: UploadKind,
  file: OutgoingFile,
  ctx: CallContext,
): Promise<VueapiResult<Uploaded>> {
  const path = uploadPath(kind);
  const headers = buildHeaders(path, ctx);
  // The type the browser declared, when it is a plain media type (the backend goes by the bytes anyway).
  headers.set(
    "Content-Type",
    /^[\w.+-]{1,64}\/[\w.+-]{1,64}$/.test(file.type) ? file.type : "application/octet-stream",
  );
  headers.set(FILE_NAME_HEADER, encodeURIComponent(file.name));
  return exchange(path, { headers, body: file.body, duplex: "half" }, uploadedSchema, ctx);
}

/** The request headers a download passes on from the browser's request (conditional and ranged requests). */
const DOWNLOAD_REQUEST_HEADERS = ["Range", "If-Range", "If-None-Match"] as const;

/**
 * A file from the backend's download path of `kind` (docs/decisions/053): the JSON payload out, the bytes
 * back as a Response whose body is read as it arrives (never held here): 200, 206 for a Range, 304 when the
 * browser's copy is current, 416 past the end. The browser's Range, If-Range and If-None-Match (from
 * `ctx.request`) are passed on. A refusal is the envelope, mapped like any call's.
 */
export async function vueapiDownload<K extends DownloadKind>(
  kind: K,
  payload: DownloadPayload<K>,
  ctx: CallContext,
): Promise<VueapiResult<Response>> {
  const path = downloadPath(kind);
  const headers = buildHeaders(path, ctx);
  headers.set("Accept", "*/*");
  for (const name of DOWNLOAD_REQUEST_HEADERS) {
    const value = ctx.request.headers.get(name);
    if (value) headers.set(name, value);
  }
  return exchange(path, { headers, body: JSON.stringify(buildBody(path, payload, ctx)) }, null, ctx);
}

/**
 * A call's signal: aborted when the browser goes away or after `ms`. Built from a controller and a timer this
 * call holds, not from AbortSignal.any(AbortSignal.timeout()), and the outgoing Request is held until the call
 * ends: the Request's own signal follows ours only through a weak reference, and a transport that holds
 * nothing (a hung one) would let garbage collection take the Request and its signal, so that the deadline
 * never reached it (seen as unit tests that waited their whole timeout under a loaded test run).
 */
function callSignal(browser: AbortSignal, ms: number) {
  const controller = new AbortController();
  let timedOut = false;
  let held: Request | null = null;
  const onBrowserGone = () => controller.abort(browser.reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException("The backend did not answer in time", "TimeoutError"));
  }, ms);
  if (browser.aborted) onBrowserGone();
  else browser.addEventListener("abort", onBrowserGone, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    /** Keeps the outgoing request (and so its signal) reachable while the call lasts. */
    hold(request: Request) {
      held = request;
    },
    done() {
      if (held) held = null;
      clearTimeout(timer);
      browser.removeEventListener("abort", onBrowserGone);
    },
  };
}

/**
 * One request to the backend and what its answer means (SPEC §7, §8): every case mapped here. A null
 * `dataSchema` is a download: an answer that is not the envelope is the data itself (the Response).
 */
async function exchange<T>(
  path: string,
  init: { headers: Headers; body: BodyInit; duplex?: "half" },
  dataSchema: z.ZodType<T> | null,
  ctx: CallContext,
): Promise<VueapiResult<T>> {
  const call = callSignal(ctx.request.signal, ctx.timeoutMs ?? getEnv().VUEAPI_TIMEOUT_MS);
  try {
    return await exchangeWithin(path, init, dataSchema, ctx, call);
  } finally {
    call.done();
  }
}

/** An answer as the mapping reads it: from a Response, or from a call in this process (no Response). */
type Received = { status: number; ok: boolean; response: Response | null; json: () => Promise<unknown> };

async function exchangeWithin<T>(
  path: string,
  init: { headers: Headers; body: BodyInit; duplex?: "half" },
  dataSchema: z.ZodType<T> | null,
  ctx: CallContext,
  call: ReturnType<typeof callSignal>,
): Promise<VueapiResult<T>> {
  const transport = ctx.transport ?? defaultTransport;
  const timeout = {
    get aborted() {
      return call.timedOut();
    },
  };
  // A JSON call to the backend in this process skips the Request and the Response (docs/decisions/114); a
  // transport of the caller's own, an upload's stream and a download's bytes keep them.
  const direct = ctx.transport || dataSchema === null || typeof init.body !== "string" ? null : inProcessJsonCall();
  let answer: Promise<Received>;
  if (direct) {
    answer = direct(path, init.headers, init.body as string).then((a) => ({
      status: a.status,
      ok: a.status >= 200 && a.status < 300,
      response: null,
      json: async () => JSON.parse(a.body) as unknown,
    }));
  } else {
    const outgoing = new Request(vueapiBase() + path, { method: "POST", ...init, signal: call.signal } as RequestInit);
    call.hold(outgoing);
    answer = transport(outgoing).then((r) => ({
      status: r.status,
      ok: r.ok,
      response: r,
      json: () => readJson(r, call.signal),
    }));
  }

  let response: Received;
  try {
    response = await untilAborted(answer, call.signal);
  } catch (error) {
    // An answer that comes after the call gave up is not read: its connection is let go.
    if (call.signal.aborted)
      answer.then(
        (late) => late.response?.body?.cancel().catch(() => {}),
        () => {},
      );
    if (timeout.aborted) return failure("errors:http.timeout", { status: 999 });
    if (ctx.request.signal.aborted) throw error;
    return failure("errors:http.network", { status: 0 });
  }

  if (response.status === 401) {
    throw new VueapiRedirect("/g/main/Login/Logins", "session-invalid", "errors:http.401", savedLocation(ctx.request));
  }

  if (dataSchema === null && response.response && isBytes(response.response))
    return { ok: true, data: response.response as T };

  let json: unknown;
  try {
    json = await response.json();
  } catch {
    if (timeout.aborted) return failure("errors:http.timeout", { status: 999 });
    return failure(response.ok ? "errors:empty.dataError" : httpMessageKey(response.status), {
      status: response.status,
    });
  }
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) {
    return failure(response.ok ? "errors:empty.dataError" : httpMessageKey(response.status), {
      status: response.status,
    });
  }
  const { code, message, data } = envelope.data;

  if (code === ResponseCode.OK) {
    if (!response.ok) return failure(httpMessageKey(response.status), { status: response.status });
    // A download answers bytes, not an envelope with code 0.
    if (!dataSchema) return failure("errors:empty.dataError", { status: response.status });
    const parsed = dataSchema.safeParse(data);
    if (!parsed.success) return failure("errors:empty.dataError", { status: response.status });
    return { ok: true, data: parsed.data };
  }
  // A refusal by the member's role in the account (issue 33, docs/decisions/075) is the page's or the form's
  // to say: a 403 with the message naming the roles that may. Any other code 4 leaves for the console (§8).
  if (code === ResponseCode.NO_PERMISSION && isRoleRefusal(message)) {
    return failure(`errors:${message}`, { code, status: 403, fieldErrors: {} });
  }
  if (code === ResponseCode.NO_PERMISSION) {
    throw new VueapiRedirect("/g/home/index", "no-permission", null, null);
  }
  if (code === ResponseCode.SESSION_INVALID || SESSION_INVALID_KEYS.includes(message)) {
    const key = SESSION_INVALID_KEYS.includes(message) ? `errors:${message}` : `errors:${Msg.PLEASE_LOGIN}`;
    throw new VueapiRedirect("/g/main/index", "session-invalid", key, savedLocation(ctx.request));
  }
  if (message === Msg.SILENT) {
    return failure(`errors:${Msg.SILENT}`, { silent: true, code, status: response.status });
  }
  if (!response.ok && !message.startsWith("MSG_")) {
    return failure(httpMessageKey(response.status), { code, status: response.status });
  }
  const fe = fieldErrorsSchema.safeParse(data);
  const wait = (data as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
  const params = messageParamsOf(data);
  return failure(message.startsWith("MSG_") ? `errors:${message}` : httpMessageKey(response.status || 500), {
    code,
    status: response.status,
    fieldErrors: fe.success ? fe.data.fieldErrors : {},
    ...(typeof wait === "number" && Number.isInteger(wait) && wait > 0 ? { retryAfterSeconds: wait } : {}),
    ...(params ? { params } : {}),
  });
}

/** `data.messageParams` when it is a record of strings. */
function messageParamsOf(data: unknown): Record<string, string> | null {
  const p = (data as { messageParams?: unknown } | null)?.messageParams;
  if (!p || typeof p !== "object") return null;
  const entries = Object.entries(p).filter((e): e is [string, string] => typeof e[1] === "string");
  return entries.length ? Object.fromEntries(entries) : null;
}

/*
 * The deadline and the browser's going away hold on their own (tests/unit/vueapi.test.ts): over HTTP, fetch follows the call's
 * signal through Requests linked only by weak references (undici), so after a garbage collection an abort can stop
 * short of the connection; a backend that stalls would then hold the page for ever (seen once in a loaded test run,
 * the fault suite's "body that stops half-way"). So the call waits for its answer or its signal, whichever comes first,
 * and reads the body itself, cancelling it when the signal fires: cancelling the body closes the connection.
 */

/** `promise`, or the signal's reason as soon as it is aborted. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** The answer's body as JSON, read until the end or until the signal fires (then the body is cancelled). */
async function readJson(response: Response, signal: AbortSignal): Promise<unknown> {
  if (!response.body) return response.json();
  const reader = response.body.getReader();
  const stop = () => void reader.cancel(signal.reason).catch(() => {});
  if (signal.aborted) stop();
  else signal.addEventListener("abort", stop, { once: true });
  try {
    const chunks: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    if (signal.aborted) throw signal.reason;
    return JSON.parse(new TextDecoder().decode(Buffer.concat(chunks)));
  } finally {
    signal.removeEventListener("abort", stop);
  }
}

/** A download's answer that is the file (or says the browser's copy is current, or the range is past the end). */
function isBytes(response: Response): boolean {
  if ([206, 304, 416].includes(response.status)) return true;
  return response.ok && !(response.headers.get("Content-Type") ?? "").startsWith("application/json");
}
