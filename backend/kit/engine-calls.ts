/**
 * What a call to an embedded engine is, whichever process answers it (docs/decisions/095): a path and a JSON body,
 * answered with JSON, or with the engine's error (its name, message, and JSON-RPC code and data when it has them).
 * The engine link (./engine-link.ts) carries these calls between portal processes; ADR 031's unix socket, which
 * carried them inside one cluster, is gone now that every engine is owned through a lease.
 */
export type EngineRoute = (path: string, body: unknown) => Promise<unknown>;
export class EngineCallError extends Error {
  constructor(
    message: string,
    readonly code?: number,
    readonly data?: string,
    name = "EngineCallError",
  ) {
    super(message);
    this.name = name;
  }
}

/** An engine's error as a failed call answers it: its name, message, and JSON-RPC code and data when it has them. */
export function engineErrorBody(error: unknown) {
  const e = error as { name?: string; message?: string; code?: unknown; data?: unknown };
  return {
    error: {
      name: e.name ?? "Error",
      message: e.message ?? String(error),
      code: typeof e.code === "number" ? e.code : undefined,
      data: typeof e.data === "string" ? e.data : undefined,
    },
  };
}

export type EngineErrorReply = { error?: { name: string; message: string; code?: number; data?: string } };

/** The caller's side of `engineErrorBody`: the error a failed call's answer carries. */
export const callErrorOf = (reply: EngineErrorReply, status: number | undefined) =>
  new EngineCallError(
    reply.error?.message ?? `HTTP ${status}`,
    reply.error?.code,
    reply.error?.data,
    reply.error?.name,
  );
