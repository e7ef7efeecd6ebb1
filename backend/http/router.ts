import type { z } from "zod";
import { ACTIVITY_RULES, DOWNLOAD_ACTIVITY, type ActivityRule, type UserWritePath } from "#contract/activity-rules.ts";
import { AUDIT_RULES, type OperatorPath } from "#contract/audit-rules.ts";
import { fail, ok, ResponseCode } from "#contract/envelope.ts";
import { Msg } from "#contract/messages.ts";
import { errorSummary } from "#contract/error-summary.ts";
import { paths, type PathSpec, type VueapiPath } from "#contract/paths.ts";
import { refusedTextErrors, refusedTextFields } from "#contract/text.ts";
import { isUploadKind, JSON_BODY_LIMIT_BYTES, UPLOAD_PATH_PREFIX } from "#contract/uploads.ts";
import {
  DOWNLOAD_PATH_PREFIX,
  downloads as downloadSpecs,
  isDownloadKind,
  type DownloadKind,
} from "#contract/downloads.ts";
import type { Language } from "#backend/mail.ts";
import type { Db } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { activityEntry, recordActivity } from "#backend/kit/activity.ts";
import { entryFromRule, recordAudit } from "#backend/kit/audit.ts";
import { BodyTooLargeError, discardRest, readLimited } from "#backend/kit/body-limit.ts";
import { authenticate, refusalOf, type Authenticated, type AuthUser } from "./auth.ts";
import type { TeamRole } from "#contract/team-roles.ts";
import { isDataException, isUniqueViolation } from "#backend/db/errors.ts";
import { ApiError, engineMoving, sessionInvalid } from "./errors.ts";
import { continuesDownload, sendDownload, type Download, type DownloadRequest } from "./download.ts";
import { handleUpload, type UploadRules } from "./upload.ts";
import { runActing, type Acting } from "./acting.ts";

export type CallContext = {
  deps: Deps;
  language: Language;
  /**
   * The caller, for paths that need a token: the account the token acts for (issue 33), which every domain
   * reads as its owner of records; for a path of permission `own`, the login itself.
   */
  user: AuthUser | null;
  /**
   * The login acting (docs/decisions/075): who did it in the account's name, and its role there. The account's
   * own login (its owner) unless the token switched to an account it is a member of; null on anonymous paths.
   */
  member: Member | null;
  tokenHash: string | null;
  /**
   * The end user's address as the caller of the router vouched for it (docs/decisions/021): the socket's
   * (or a trusted proxy's) for a call over HTTP, the portal's header for a call in-process; null if unknown.
   */
  clientAddress: string | null;
  /** The path called (the audit log names it). */
  path: VueapiPath;
  /**
   * What the token check read of the account the token acts for (docs/decisions/075), for handlers that would
   * otherwise read it again (`/main/team/accounts`): its id, and the login's role there (null: none). Absent on
   * anonymous paths and in contexts made outside the router.
   */
  acting?: { accountId: number; loginRole: TeamRole | null };
};

/** The login acting for the account, and its role there. */
export type Member = { id: number; userName: string; realName: string | null; role: TeamRole };

/** The member acting for the account in a user call, for the ledger's spending limit (docs/decisions/080). */
const actingOf = (user: AuthUser | null, member: Member | null): Acting | null =>
  user && member ? { accountId: user.id, memberId: member.id, role: member.role } : null;

/** Who hands a request to the router, and what it knows of the end user. */
export type Caller = { clientAddress?: string | null };

/** The context of a path that needs a token: the router has authenticated the caller. */
export type SignedInContext = CallContext & { user: AuthUser; member: Member; tokenHash: string };

/** What the handler of path P receives: the signed-in context unless the path is anonymous. */
export type ContextOf<P extends VueapiPath> = (typeof paths)[P]["auth"] extends "anon" ? CallContext : SignedInContext;

type AnyHandler = (payload: unknown, ctx: CallContext) => Promise<unknown>;
export type Handlers = { [P in VueapiPath]: AnyHandler };

/** What the router hands the handler of path P: its payload as the contract's schema parsed it. */
export type Payload<P extends VueapiPath> = z.output<(typeof paths)[P]["payload"]>;

/** The handler of path P, typed by its path: its parsed payload and its caller. */
export type Handler<P extends VueapiPath> = (payload: Payload<P>, ctx: ContextOf<P>) => Promise<unknown>;

/**
 * A domain's handlers by path, each checked against the payload and the caller of its own path (the router
 * calls a handler only with the payload that path's schema parsed, and with the caller its `auth` demands).
 */
export function handlersOf<M extends { [P in keyof M]: P extends VueapiPath ? Handler<P> : never }>(
  map: M,
): { [P in keyof M]: AnyHandler } {
  return map as unknown as { [P in keyof M]: AnyHandler };
}

/** The handler of download kind K (docs/decisions/053): its parsed payload and its caller; it names the file. */
type Spec<K extends DownloadKind> = (typeof downloadSpecs)[K];
/** The payload of download kind K as its schema parsed it. */
export type DownloadInput<K extends DownloadKind> = z.output<Spec<K>["payload"]>;
export type DownloadHandler<K extends DownloadKind> = (
  payload: DownloadInput<K>,
  ctx: Spec<K>["auth"] extends "anon" ? CallContext : SignedInContext,
  request: DownloadRequest,
) => Promise<Download>;
type AnyDownloadHandler = (payload: unknown, ctx: CallContext, request: DownloadRequest) => Promise<Download>;
export type DownloadHandlers = { [K in DownloadKind]: AnyDownloadHandler };

/** A domain's download handlers by kind, each typed by its kind's payload and caller. */
export function downloadHandlersOf<M extends { [K in keyof M]: K extends DownloadKind ? DownloadHandler<K> : never }>(
  map: M,
): { [K in keyof M]: AnyDownloadHandler } {
  return map as unknown as { [K in keyof M]: AnyDownloadHandler };
}

const PREFIX = "/vueapi";

/** The Team activity rule of a user write path (contract/activity-rules.ts), or null when it records nothing. */
function activityRuleOf(spec: PathSpec, path: VueapiPath) {
  if (spec.auth !== "user" || !spec.permission || spec.permission === "read" || spec.permission === "own") return null;
  const rule = (ACTIVITY_RULES as Record<string, ActivityRule | undefined>)[path as UserWritePath];
  return rule && rule !== "none" ? { rule, permission: spec.permission } : null;
}

/**
 * A JSON call's answer before it is a Response: what a call in this process gets without one
 * (docs/decisions/114), and what `route` sends as a Response over HTTP. `body` is the envelope's JSON text.
 */
export type JsonAnswer = { status: number; headers: Record<string, string>; body: string };

function jsonAnswer(body: unknown, status = 200, extra: Record<string, string> = {}): JsonAnswer {
  return {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...extra },
    body: JSON.stringify(body),
  };
}

const toResponse = (answer: JsonAnswer) => new Response(answer.body, answer);

function jsonResponse(body: unknown, status = 200, extra: Record<string, string> = {}) {
  return toResponse(jsonAnswer(body, status, extra));
}

/** An ApiError as its HTTP answer: 200 with the envelope, or its own status (429 with Retry-After). */
function errorAnswer(error: ApiError): JsonAnswer {
  const retry = error.http?.retryAfterSeconds;
  return jsonAnswer(
    fail(error.messageKey, error.data, error.code),
    error.http?.status ?? 200,
    retry ? { "Retry-After": String(retry) } : {},
  );
}
const errorResponse = (error: ApiError) => toResponse(errorAnswer(error));

/** Zod issues as `fieldErrors`: dotted path → i18n keys. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "_form";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/** What the router reads of a request besides its body: its headers (a call in this process has no Request). */
type Asking = Pick<Request, "headers">;

function languageOf(request: Asking, body: Record<string, unknown>): Language {
  const value = body.userLanguage ?? request.headers.get("userLanguage");
  return value === "zh-CN" ? "zh-CN" : "en";
}

/** A JSON body of at most JSON_BODY_LIMIT_BYTES, counted while it arrives (docs/decisions/023). */
async function readJsonObject(request: Request): Promise<Record<string, unknown> | "tooLarge" | null> {
  let bytes: Uint8Array;
  try {
    bytes = await readLimited(request, JSON_BODY_LIMIT_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return "tooLarge";
    return null;
  }
  return parseJsonObject(new TextDecoder().decode(bytes));
}

/** A JSON object's text as the object, or null (not JSON, or not an object). */
function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The /vueapi protocol (SPEC §7): JSON POST, `{code, message, data}`, §8 message keys; a JSON body is at
 * most 1 MB. Files are not JSON: `/upload/<kind>` takes them as a stream (backend/http/upload.ts).
 */
export function createRouter(
  deps: Deps,
  handlers: Handlers,
  uploads: UploadRules = new Map(),
  downloads: Partial<DownloadHandlers> = {},
) {
  /**
   * The caller of a path of this `auth`, authenticated and allowed by its `permission` (throws the refusal
   * as an ApiError): the account it acts for, or the login itself on an `own` path, and the acting member.
   */
  async function callerOf(
    request: Asking,
    spec: Pick<PathSpec, "auth" | "permission" | "beforeSecondFactor">,
  ): Promise<{
    user: AuthUser | null;
    member: CallContext["member"];
    tokenHash: string | null;
    acting?: CallContext["acting"];
  }> {
    if (spec.auth === "anon") return { user: null, member: null, tokenHash: null };
    // An operator's token opens nothing but the second step until it is passed (docs/decisions/022).
    const needsSecondFactor = (a: Authenticated) =>
      a.user.role === "operator" && !a.secondFactorPassed && !spec.beforeSecondFactor;
    const notOperator = (a: Authenticated) => spec.auth === "operator" && a.login.role !== "operator";
    const byRole = (a: Authenticated) => (spec.permission ? refusalOf(a, spec.permission) : null);
    let auth = await authenticate(deps, request);
    // A refusal is never decided on a kept answer (the second factor passed, a role changed or a member
    // removed in another process since): it is read again first (docs/decisions/030).
    if (auth.kept && (needsSecondFactor(auth) || notOperator(auth) || byRole(auth)))
      auth = await authenticate(deps, request, true);
    if (needsSecondFactor(auth)) throw sessionInvalid(Msg.SECOND_FACTOR_REQUIRED);
    if (notOperator(auth)) throw new ApiError(Msg.NO_PERMISSION, null, ResponseCode.NO_PERMISSION);
    const refusal = byRole(auth);
    if (refusal) throw refusal;
    const { login } = auth;
    const member = {
      id: login.id,
      userName: login.userName,
      realName: login.realName,
      // An operator path's caller is the operator itself (its own account); `own` paths answer for the login.
      role: auth.teamRole ?? "owner",
    };
    const user = spec.permission === "own" || spec.auth === "operator" ? login : auth.user;
    return { user, member, tokenHash: auth.tokenHash, acting: { accountId: auth.user.id, loginRole: auth.teamRole } };
  }

  /**
   * `POST /vueapi/download/<kind>` (docs/decisions/053): the payload checked as a path's is, the handler
   * names the file, and the answer is its bytes (backend/http/download.ts), or the envelope of a refusal.
   */
  async function download(
    kind: keyof DownloadHandlers,
    request: Request,
    body: Record<string, unknown>,
    caller: Caller,
  ): Promise<Response> {
    const spec = downloadSpecs[kind];
    const { userLanguage: _l, portalCode: _p, ...payload } = body;
    try {
      const { user, member, tokenHash } = await callerOf(request, spec);
      const refused = refusedTextFields(payload);
      if (refused.length > 0)
        return jsonResponse(fail(Msg.INVALID_PARAMS, { fieldErrors: refusedTextErrors(refused) }), 400);
      const parsed = spec.payload.safeParse(payload);
      if (!parsed.success) return jsonResponse(fail(Msg.INVALID_PARAMS, { fieldErrors: fieldErrorsOf(parsed.error) }));
      const ctx: CallContext = {
        deps,
        language: languageOf(request, body),
        user,
        member,
        tokenHash,
        clientAddress: caller.clientAddress ?? null,
        // Not a /vueapi path: the audit log never names a download (every kind is a read).
        path: `${DOWNLOAD_PATH_PREFIX}${kind}` as VueapiPath,
      };
      const named = await downloads[kind]!(parsed.data, ctx, {
        continuing: continuesDownload(request.headers.get("Range")),
      });
      // A key or certificate handed out in the account's name is Team activity (docs/decisions/079).
      const keyDownload = DOWNLOAD_ACTIVITY[kind];
      if (keyDownload && user && member && spec.auth === "user" && !continuesDownload(request.headers.get("Range")))
        await recordActivity(deps.db, {
          ...activityEntry({ ...keyDownload, keys: true }, "services", parsed.data as Record<string, unknown>),
          accountId: user.id,
          member,
          at: deps.now(),
          path: ctx.path,
        });
      return await sendDownload(deps, request, named);
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error);
      const moving = engineMoving(error);
      if (moving) return errorResponse(moving);
      console.error(`vueapi download/${kind} failed: ${errorSummary(error)}`);
      return jsonResponse(fail(Msg.SERVER_ERROR), 500);
    }
  }

  async function route(request: Request, caller: Caller = {}): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length) : url.pathname;
    const asked = path.startsWith(UPLOAD_PATH_PREFIX) ? path.slice(UPLOAD_PATH_PREFIX.length) : null;
    const uploadKind = isUploadKind(asked) && uploads.has(asked) ? asked : null;
    const askedDownload = path.startsWith(DOWNLOAD_PATH_PREFIX) ? path.slice(DOWNLOAD_PATH_PREFIX.length) : null;
    const downloadKind = isDownloadKind(askedDownload) && downloads[askedDownload] ? askedDownload : null;
    if (!uploadKind && !downloadKind && !Object.prototype.hasOwnProperty.call(paths, path)) {
      discardRest(request.body);
      return jsonResponse(fail(Msg.NOT_FOUND), 404);
    }
    if (request.method !== "POST") {
      discardRest(request.body);
      return new Response(JSON.stringify(fail(Msg.INVALID_PARAMS)), {
        status: 405,
        headers: { Allow: "POST", "Content-Type": "application/json; charset=utf-8" },
      });
    }
    if (uploadKind) {
      try {
        return await handleUpload(deps, uploads, uploadKind, request, caller.clientAddress ?? null);
      } catch (error) {
        console.error(`vueapi ${path} failed: ${errorSummary(error)}`);
        return jsonResponse(fail(Msg.SERVER_ERROR), 500);
      }
    }
    const body = await readJsonObject(request);
    if (body === "tooLarge") return jsonResponse(fail(Msg.REQUEST_TOO_LARGE), 413);
    if (!body) return jsonResponse(fail(Msg.INVALID_PARAMS), 400);
    if (downloadKind) return download(downloadKind, request, body, caller);
    return toResponse(await answerJson(path as VueapiPath, request, body, caller));
  }

  /** A /vueapi path's call once its body is read: the caller checked, the payload parsed, the handler run. */
  async function answerJson(
    vueapiPath: VueapiPath,
    request: Asking,
    body: Record<string, unknown>,
    caller: Caller,
  ): Promise<JsonAnswer> {
    const path = vueapiPath;
    const spec = paths[vueapiPath];
    const language = languageOf(request, body);
    const { userLanguage: _l, portalCode: _p, ...payload } = body;
    try {
      const { user, member, tokenHash, acting } = await callerOf(request, spec as PathSpec);
      // Text the database cannot keep (NUL, lone surrogates) is refused wherever it is, before any rule or
      // handler sees it (docs/decisions/024).
      const refused = refusedTextFields(payload);
      if (refused.length > 0)
        return jsonAnswer(fail(Msg.INVALID_PARAMS, { fieldErrors: refusedTextErrors(refused) }), 400);
      const parsed = spec.payload.safeParse(payload);
      if (!parsed.success) {
        return jsonAnswer(fail(Msg.INVALID_PARAMS, { fieldErrors: fieldErrorsOf(parsed.error) }));
      }
      const ctx: CallContext = {
        deps,
        language,
        user,
        member,
        tokenHash,
        clientAddress: caller.clientAddress ?? null,
        path: vueapiPath,
        ...(acting ? { acting } : {}),
      };
      const rule = (spec.auth as string) === "operator" ? AUDIT_RULES[vueapiPath as OperatorPath] : "read";
      const handler = handlers[vueapiPath];
      const data =
        typeof rule === "object" && user
          ? // An operator decision and its audit entry commit together, or neither does (docs/decisions/022).
            await deps.db.transaction(async (tx) => {
              const result = await handler(parsed.data, { ...ctx, deps: { ...deps, db: tx as unknown as Db } });
              const entry = entryFromRule(rule, parsed.data as Record<string, unknown>, result);
              await recordAudit(tx, {
                ...entry,
                actor: user,
                at: deps.now(),
                path: vueapiPath,
                clientIp: ctx.clientAddress,
              });
              return result;
            })
          : await runActing(actingOf(user, member), () => handler(parsed.data, ctx));
      const activity = activityRuleOf(spec as PathSpec, vueapiPath);
      if (activity && user && member)
        // Who did it, in the account's name (docs/decisions/079): written once the call has succeeded.
        await recordActivity(deps.db, {
          ...activityEntry(activity.rule, activity.permission, parsed.data as Record<string, unknown>),
          accountId: user.id,
          member,
          at: deps.now(),
          path: vueapiPath,
        });
      return jsonAnswer(ok(data ?? null));
    } catch (error) {
      if (error instanceof ApiError) return errorAnswer(error);
      // A network engine changing hands under the call (docs/decisions/109): the caller may send it again.
      const moving = engineMoving(error);
      if (moving) {
        console.warn(`vueapi ${path}: ${errorSummary(error)}`);
        return errorAnswer(moving);
      }
      // A value the database refuses (a number out of range, text too long) came from the request: a 400,
      // though a rule of the contract should have caught it first.
      if (isDataException(error)) {
        console.warn(`vueapi ${path}: the database refused a value: ${errorSummary(error)}`);
        return jsonAnswer(fail(Msg.INVALID_PARAMS), 400);
      }
      // A unique constraint no handler turned into its own message: the record exists already, or a second
      // request made it first. The caller's conflict, a 409, never the server's fault.
      if (isUniqueViolation(error)) {
        console.warn(`vueapi ${path}: a unique constraint refused the write: ${errorSummary(error)}`);
        return jsonAnswer(fail(Msg.CONFLICT), 409);
      }
      // Logged without the request's values (a failed query's message holds its parameters).
      console.error(`vueapi ${path} failed: ${errorSummary(error)}`);
      return jsonAnswer(fail(Msg.SERVER_ERROR), 500);
    }
  }

  /**
   * A JSON call from the portal in this process, without a Request or a Response (docs/decisions/114): the
   * same checks as `route` makes for a JSON path (a known path, the body's limit, a JSON object), then the
   * same call. `headers` are the request layer's; `bodyText` its JSON text.
   */
  async function callJson(path: string, headers: Headers, bodyText: string, caller: Caller = {}): Promise<JsonAnswer> {
    if (!Object.prototype.hasOwnProperty.call(paths, path)) return jsonAnswer(fail(Msg.NOT_FOUND), 404);
    if (Buffer.byteLength(bodyText) > JSON_BODY_LIMIT_BYTES) return jsonAnswer(fail(Msg.REQUEST_TOO_LARGE), 413);
    const body = parseJsonObject(bodyText);
    if (!body) return jsonAnswer(fail(Msg.INVALID_PARAMS), 400);
    return answerJson(path as VueapiPath, { headers }, body, caller);
  }

  return Object.assign(route, { callJson });
}
