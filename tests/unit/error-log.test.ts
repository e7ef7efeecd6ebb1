import { DrizzleQueryError } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { errorSummary } from "#contract/error-summary.ts";
import type { Deps } from "#backend/deps.ts";
import { createRouter, type Handlers } from "#backend/http/router.ts";
import { NotLeaseHolderError } from "#backend/kit/engine-lease.ts";
import { EngineUnreachableError, NotEngineHolderError } from "#backend/kit/engine-link.ts";

const SECRET = "s3cret-input-4711";

/** A driver error as node-postgres and PGlite throw them: a message, a SQLSTATE code, the table. */
function databaseError(code: string, message: string, extra: Record<string, string> = {}) {
  return Object.assign(new Error(message), { name: "error", code, ...extra });
}

describe("errorSummary: what of an error goes to a log", () => {
  it("tells a failed query by class and driver error, without its SQL parameters", () => {
    const error = new DrizzleQueryError(
      'select * from "users" where "users"."user_name" = $1',
      [SECRET],
      databaseError("42P01", 'relation "users" does not exist', { table: "users" }),
    );
    expect(error.message).toContain(SECRET);
    const summary = errorSummary(error);
    expect(summary).not.toContain(SECRET);
    expect(summary.split("\n")[0]).toBe(
      'DrizzleQueryError: database error 42P01 (table users): relation "users" does not exist',
    );
    expect(summary).toMatch(/\n\s+at /);
  });

  it("leaves out the message of a data exception, which quotes the value", () => {
    const cause = databaseError("22003", `value "${SECRET}" is out of range for type integer`);
    const summary = errorSummary(new DrizzleQueryError("select $1::int", [SECRET], cause));
    expect(summary).not.toContain(SECRET);
    expect(summary.split("\n")[0]).toBe("DrizzleQueryError: database error 22003");
  });

  it("tells other errors by class and first line, and a non-error by its type", () => {
    expect(errorSummary(new TypeError("bad thing\nsecond line"), false)).toBe("TypeError: bad thing");
    expect(errorSummary("a string", false)).toBe("non-error thrown (string)");
  });
});

describe("the /vueapi router's error log", () => {
  const deps = {} as Deps;

  it("logs a failing query without its parameters and answers 500", async () => {
    const handlers = {
      "/anon/platform/cityNodes": async () => {
        throw new DrizzleQueryError(
          'update "users" set "real_name" = $1',
          [SECRET],
          databaseError("40P01", "deadlock detected"),
        );
      },
    } as unknown as Handlers;
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await createRouter(
      deps,
      handlers,
    )(
      new Request("http://x/vueapi/anon/platform/cityNodes", {
        method: "POST",
        body: JSON.stringify({ note: SECRET }),
      }),
    );
    expect(res.status).toBe(500);
    expect(logged).toHaveBeenCalledTimes(1);
    const line = logged.mock.calls[0].map(String).join(" ");
    expect(line).toContain(
      "vueapi /anon/platform/cityNodes failed: DrizzleQueryError: database error 40P01: deadlock detected",
    );
    expect(line).not.toContain(SECRET);
    logged.mockReset();
  });

  it("answers 400 to a value the database refuses, logged as a warning without the value", async () => {
    const handlers = {
      "/anon/platform/cityNodes": async () => {
        throw new DrizzleQueryError(
          'select * from "bills" where "id" = $1',
          [SECRET],
          databaseError("22003", `value "${SECRET}" is out of range for type integer`),
        );
      },
    } as unknown as Handlers;
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const res = await createRouter(
      deps,
      handlers,
    )(new Request("http://x/vueapi/anon/platform/cityNodes", { method: "POST", body: "{}" }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 1, message: "MSG_10001", data: null });
    expect(warned.mock.calls.flat().map(String).join(" ")).not.toContain(SECRET);
    expect(warned.mock.calls.flat().map(String).join(" ")).toContain("22003");
  });

  it("answers 503 with Retry-After, never a 500, when a network engine changes hands under a call (ADR 109)", async () => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const moving = [
      new EngineUnreachableError("the fabric engine moved to another process during the call", true),
      new NotEngineHolderError("this process does not run the chain engine now"),
      new NotLeaseHolderError("dedicated"),
    ];
    for (const error of moving) {
      const router = createRouter(deps, {
        "/anon/platform/cityNodes": async () => {
          throw error;
        },
      } as unknown as Handlers);
      const res = await router(new Request("http://x/vueapi/anon/platform/cityNodes", { method: "POST", body: "{}" }));
      expect(res.status, error.name).toBe(503);
      expect(res.headers.get("Retry-After")).toBe("10");
      expect(await res.json()).toEqual({ code: 1, message: "MSG_10503", data: null });
    }
    expect(warned).toHaveBeenCalledTimes(3);
    warned.mockRestore();
  });

  it("refuses refused text before the handler runs", async () => {
    const handler = vi.fn(async () => []);
    const router = createRouter(deps, { "/anon/platform/cityNodes": handler } as unknown as Handlers);
    const res = await router(
      new Request("http://x/vueapi/anon/platform/cityNodes", {
        method: "POST",
        body: JSON.stringify({ a: [{ b: "x\u0000" }] }),
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 1,
      message: "MSG_10001",
      data: { fieldErrors: { "a.0.b": ["validation.text.unstorable"] } },
    });
    expect(handler).not.toHaveBeenCalled();
  });
});
