import type { z } from "zod";
import { AUDIT_RULES, type OperatorPath } from "../../contract/audit-rules";
import { fail, ok, ResponseCode } from "../../contract/envelope";
import { Msg } from "../../contract/messages";
import { paths, type PathSpec, type VueapiPath } from "../../contract/paths";
import type { Db } from "../db/client";
import type { Language } from "../mail";
import type { Deps } from "../deps";
import { clientAddressOf, entryFromRule, recordAudit } from "../kit/audit";
import { authenticate, type AuthUser } from "./auth";
import { ApiError, sessionInvalid } from "./errors";

export type CallContext = {
  services: Deps;
  language: Language;
  /** The caller, for paths that need a token. */
  user: AuthUser | null;
  tokenHash: string | null;
  /** The path called, and the caller's address as the server entry saw it (for the audit log). */
  path: VueapiPath;
  clientIp: string | null;
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

/** The /vueapi protocol (SPEC §7): JSON POST, `{code, message, data}`, §8 message keys. */
export function createRouter(services: Deps, handlers: Handlers) {
  return async function route(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length) : url.pathname;
    if (!Object.prototype.hasOwnProperty.call(paths, path)) {
      return jsonResponse(fail(Msg.NOT_FOUND), 404);
    }
    if (request.method !== "POST") {
      return new Response(JSON.stringify(fail(Msg.INVALID_PARAMS)), {
        status: 405,
        headers: { Allow: "POST", "Content-Type": "application/json; charset=utf-8" },
      });
    }
    let body: Record<string, unknown>;
    try {
      const parsed = await request.json();
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
      body = parsed as Record<string, unknown>;
    } catch {
      return jsonResponse(fail(Msg.INVALID_PARAMS), 400);
    }
    const vueapiPath = path as VueapiPath;
    const spec = paths[vueapiPath];
    const language = languageOf(request, body);
    const { userLanguage: _l, portalCode: _p, ...payload } = body;
    try {
      let user: AuthUser | null = null;
      let tokenHash: string | null = null;
      if (spec.auth !== "anon") {
        let secondFactorPassed: boolean;
        ({ user, tokenHash, secondFactorPassed } = await authenticate(services, request));
        // An operator's token opens nothing but the second step until it is passed (docs/decisions/022).
        if (user.role === "operator" && !secondFactorPassed && !(spec as PathSpec).beforeSecondFactor) {
          throw sessionInvalid(Msg.SECOND_FACTOR_REQUIRED);
        }
        if ((spec.auth as string) === "operator" && user.role !== "operator") {
          throw new ApiError(Msg.NO_PERMISSION, null, ResponseCode.NO_PERMISSION);
        }
      }
      const parsed = spec.payload.safeParse(payload);
      if (!parsed.success) {
        return jsonResponse(fail(Msg.INVALID_PARAMS, { fieldErrors: fieldErrorsOf(parsed.error) }));
      }
      const ctx: CallContext = { services, language, user, tokenHash, path: vueapiPath, clientIp: clientAddressOf(request) };
      const rule = (spec.auth as string) === "operator" ? AUDIT_RULES[vueapiPath as OperatorPath] : "read";
      const handler = handlers[vueapiPath];
      const data =
        typeof rule === "object" && user
          ? // An operator decision and its audit entry commit together, or neither does.
            await services.db.transaction(async (tx) => {
              const result = await handler(parsed.data, { ...ctx, services: { ...services, db: tx as unknown as Db } });
              const entry = entryFromRule(rule, parsed.data as Record<string, unknown>, result);
              await recordAudit(tx, { ...entry, actor: user, at: services.now(), path: vueapiPath, clientIp: ctx.clientIp });
              return result;
            })
          : await handler(parsed.data, ctx);
      return jsonResponse(ok(data ?? null));
    } catch (error) {
      if (error instanceof ApiError) return jsonResponse(fail(error.messageKey, error.data, error.code));
      console.error(`vueapi ${path} failed`, error);
      return jsonResponse(fail(Msg.SERVER_ERROR), 500);
    }
  };
}
