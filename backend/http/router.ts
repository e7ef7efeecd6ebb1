import type { z } from "zod";
import { fail, ok, ResponseCode } from "../../contract/envelope";
import { Msg } from "../../contract/messages";
import { paths, type VueapiPath } from "../../contract/paths";
import { isUploadKind, JSON_BODY_LIMIT_BYTES, UPLOAD_PATH_PREFIX } from "../../contract/uploads";
import type { Language } from "../mail";
import type { Deps } from "../deps";
import { BodyTooLargeError, discardRest, readLimited } from "../kit/body-limit";
import { authenticate, type AuthUser } from "./auth";
import { ApiError } from "./errors";
import { handleUpload, type UploadRules } from "./upload";

export type CallContext = {
  services: Deps;
  language: Language;
  /** The caller, for paths that need a token. */
  user: AuthUser | null;
  tokenHash: string | null;
};

/** The context of a path that needs a token: the router has authenticated the caller. */
export type SignedInContext = CallContext & { user: AuthUser; tokenHash: string };

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
export function handlersOf<M extends { [P in keyof M]: P extends VueapiPath ? Handler<P> : never }>(map: M): { [P in keyof M]: AnyHandler } {
  return map as unknown as { [P in keyof M]: AnyHandler };
}

const PREFIX = "/vueapi";

function jsonResponse(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** Zod issues as `fieldErrors`: dotted path → i18n keys. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "_form";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

function languageOf(request: Request, body: Record<string, unknown>): Language {
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
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The /vueapi protocol (SPEC §7): JSON POST, `{code, message, data}`, §8 message keys; a JSON body is at
 * most 1 MB. Files are not JSON: `/upload/<kind>` takes them as a stream (backend/http/upload.ts).
 */
export function createRouter(services: Deps, handlers: Handlers, uploads: UploadRules = new Map()) {
  return async function route(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length) : url.pathname;
    const asked = path.startsWith(UPLOAD_PATH_PREFIX) ? path.slice(UPLOAD_PATH_PREFIX.length) : null;
    const uploadKind = isUploadKind(asked) && uploads.has(asked) ? asked : null;
    if (!uploadKind && !Object.prototype.hasOwnProperty.call(paths, path)) {
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
        return await handleUpload(services, uploads, uploadKind, request);
      } catch (error) {
        console.error(`vueapi ${path} failed`, error);
        return jsonResponse(fail(Msg.SERVER_ERROR), 500);
      }
    }
    const body = await readJsonObject(request);
    if (body === "tooLarge") return jsonResponse(fail(Msg.REQUEST_TOO_LARGE), 413);
    if (!body) return jsonResponse(fail(Msg.INVALID_PARAMS), 400);
    const vueapiPath = path as VueapiPath;
    const spec = paths[vueapiPath];
    const language = languageOf(request, body);
    const { userLanguage: _l, portalCode: _p, ...payload } = body;
    try {
      let user: AuthUser | null = null;
      let tokenHash: string | null = null;
      if (spec.auth !== "anon") {
        ({ user, tokenHash } = await authenticate(services, request));
        if ((spec.auth as string) === "operator" && user.role !== "operator") {
          throw new ApiError(Msg.NO_PERMISSION, null, ResponseCode.NO_PERMISSION);
        }
      }
      const parsed = spec.payload.safeParse(payload);
      if (!parsed.success) {
        return jsonResponse(fail(Msg.INVALID_PARAMS, { fieldErrors: fieldErrorsOf(parsed.error) }));
      }
      const data = await handlers[vueapiPath](parsed.data, { services, language, user, tokenHash });
      return jsonResponse(ok(data ?? null));
    } catch (error) {
      if (error instanceof ApiError) return jsonResponse(fail(error.messageKey, error.data, error.code));
      console.error(`vueapi ${path} failed`, error);
      return jsonResponse(fail(Msg.SERVER_ERROR), 500);
    }
  };
}
