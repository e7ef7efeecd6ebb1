import v8 from "node:v8";
import vm from "node:vm";
import "./setup-env.ts";
import { describe, expect, it, vi } from "vitest";

// The request layer is tested against fake transports; the embedded backend is not loaded.
vi.mock("#backend/index.ts", () => ({ handleVueapi: vi.fn(), startBackend: vi.fn() }));
import { apiFor, failureStatus, type Viewer } from "#app/lib/api.server.ts";
import { getEnv, resetEnvForTests } from "#app/lib/env.server.ts";
import {
  buildBody,
  buildHeaders,
  httpMessageKey,
  REQUEST_TIMEOUT_MS,
  vueapi,
  VueapiRedirect,
  type CallContext,
} from "#app/lib/vueapi.server.ts";

const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) Chrome/120";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148";

function incoming(url = "http://portal.test/g/home/index", ua = DESKTOP, signal?: AbortSignal) {
  return new Request(url, { headers: { "User-Agent": ua }, signal });
}
function reply(body: unknown, status = 200) {
  return new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}
function ctx(over: Partial<CallContext> = {}): CallContext {
  return { request: incoming(), language: "en", token: "tok", ...over };
}
const user = {
  userId: 1,
  userName: "alice1",
  realName: "爱丽丝",
  email: "a@b.cd",
  mobile: null,
  userType: 1,
  companyName: null,
  role: "user",
  createdAt: "2026-01-01T00:00:00Z",
  lastLoginAt: null,
};

describe("request layer: what it sends (SPEC §7)", () => {
  it("posts JSON to /vueapi + path with the fixed headers, the token and the language in header and body", async () => {
    let seen: Request | undefined;
    const result = await vueapi(
      "/main/getClientInfo",
      {},
      ctx({
        language: "zh-CN",
        transport: async (r) => {
          seen = r;
          return reply({ code: 0, message: "", data: user });
        },
      }),
    );
    expect(result.ok).toBe(true);
    expect(seen!.method).toBe("POST");
    expect(new URL(seen!.url).pathname).toBe("/vueapi/main/getClientInfo");
    expect(seen!.headers.get("X-Requested-With")).toBe("XMLHttpRequest");
    expect(seen!.headers.get("X-Api-Mode")).toBe("portal");
    expect(seen!.headers.get("userLanguage")).toBe("zh-CN");
    expect(seen!.headers.get("Authorization")).toBe("Bearer tok");
    expect(seen!.headers.get("Content-Type")).toBe("application/json");
    expect(seen!.headers.get("clientCode")).toBeNull();
    expect(await seen!.json()).toEqual({ userLanguage: "zh-CN" });
  });

  it("sends the client code on login, on mobile, and when asked", () => {
    expect(buildHeaders("/main/user/login", ctx()).get("clientCode")).toBe("portal-pc");
    expect(buildHeaders("/main/getClientInfo", ctx({ request: incoming(undefined, IPHONE) })).get("clientCode")).toBe(
      "portal-h5",
    );
    expect(buildHeaders("/main/getClientInfo", ctx({ clientCode: true })).get("clientCode")).toBe("portal-pc");
    expect(buildHeaders("/main/getClientInfo", ctx({ token: null })).get("Authorization")).toBeNull();
  });

  it("adds portalCode 1 on portal pages for the listed paths, inside the condition when paged", () => {
    expect(buildBody("/anon/platform/cityNodes", {}, ctx({ portalPage: true }))).toEqual({
      userLanguage: "en",
      portalCode: 1,
    });
    expect(
      buildBody(
        "/anon/platform/cityNodes",
        { page: { pageSize: 10, pageIndex: 1, condition: { a: 1 } } },
        ctx({ portalPage: true }),
      ),
    ).toEqual({
      userLanguage: "en",
      page: { pageSize: 10, pageIndex: 1, condition: { a: 1, portalCode: 1 } },
    });
    expect(buildBody("/anon/platform/cityNodes", {}, ctx({ portalPage: false }))).toEqual({ userLanguage: "en" });
    expect(buildBody("/main/getClientInfo", {}, ctx({ portalPage: true }))).toEqual({ userLanguage: "en" });
  });

  it("uses the 180000 ms timeout of SPEC §7 unless VUEAPI_TIMEOUT_MS says otherwise", () => {
    expect(REQUEST_TIMEOUT_MS).toBe(180000);
    const previous = process.env.VUEAPI_TIMEOUT_MS;
    try {
      delete process.env.VUEAPI_TIMEOUT_MS;
      resetEnvForTests();
      expect(getEnv().VUEAPI_TIMEOUT_MS).toBe(180000);
      process.env.VUEAPI_TIMEOUT_MS = "5000";
      resetEnvForTests();
      expect(getEnv().VUEAPI_TIMEOUT_MS).toBe(5000);
      process.env.VUEAPI_TIMEOUT_MS = "soon";
      resetEnvForTests();
      expect(() => getEnv()).toThrow(/VUEAPI_TIMEOUT_MS/);
    } finally {
      if (previous === undefined) delete process.env.VUEAPI_TIMEOUT_MS;
      else process.env.VUEAPI_TIMEOUT_MS = previous;
      resetEnvForTests();
    }
  });
});

describe("request layer: every §8 case", () => {
  it("code 4 goes to /g/home/index", async () => {
    const err = await vueapi(
      "/main/getClientInfo",
      {},
      ctx({ transport: async () => reply({ code: 4, message: "MSG_10403", data: null }) }),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(VueapiRedirect);
    expect(err.to).toBe("/g/home/index");
    expect(err.reason).toBe("no-permission");
  });

  for (const message of ["MSG_10004", "MSG_10005", "MSG_10009"]) {
    it(`${message} invalidates the session, saves a /g/home location and goes to /g/main/index`, async () => {
      const err = await vueapi(
        "/main/getClientInfo",
        {},
        ctx({
          request: incoming("http://portal.test/g/home/userCenter/MessageCenter?page=2&_data=routes%2Fx"),
          transport: async () => reply({ code: 1, message, data: null }),
        }),
      ).catch((e) => e);
      expect(err).toBeInstanceOf(VueapiRedirect);
      expect(err.reason).toBe("session-invalid");
      expect(err.to).toBe("/g/main/index");
      expect(err.messageKey).toBe(`errors:${message}`);
      expect(err.returnTo).toBe("/g/home/userCenter/MessageCenter?page=2");
    });
  }

  it("code 3 invalidates the session; a /g/main location is not saved", async () => {
    const err = await vueapi(
      "/main/getClientInfo",
      {},
      ctx({
        request: incoming("http://portal.test/g/main/index"),
        transport: async () => reply({ code: 3, message: "whatever" }),
      }),
    ).catch((e) => e);
    expect(err.reason).toBe("session-invalid");
    expect(err.messageKey).toBe("errors:MSG_10004");
    expect(err.returnTo).toBeNull();
  });

  it("MSG_32029 is silent", async () => {
    const result = await vueapi(
      "/main/getClientInfo",
      {},
      ctx({ transport: async () => reply({ code: 1, message: "MSG_32029" }) }),
    );
    expect(result).toMatchObject({ ok: false, silent: true });
  });

  it("another code gives its translated message and the field errors", async () => {
    const result = await vueapi(
      "/main/getClientInfo",
      {},
      ctx({
        transport: async () =>
          reply({ code: 1, message: "MSG_10001", data: { fieldErrors: { userName: ["errors:MSG_20009"] } } }),
      }),
    );
    expect(result).toMatchObject({
      ok: false,
      silent: false,
      messageKey: "errors:MSG_10001",
      fieldErrors: { userName: ["errors:MSG_20009"] },
    });
  });

  for (const status of [400, 403, 404, 500, 502, 503, 504]) {
    it(`HTTP ${status} gives the catalogue's message`, async () => {
      const result = await vueapi(
        "/main/getClientInfo",
        {},
        ctx({ transport: async () => new Response("<html>oops</html>", { status }) }),
      );
      expect(result).toMatchObject({ ok: false, messageKey: `errors:http.${status}`, status });
    });
  }

  it("HTTP 401 clears the user and goes to login", async () => {
    const err = await vueapi(
      "/main/getClientInfo",
      {},
      ctx({ transport: async () => new Response("", { status: 401 }) }),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(VueapiRedirect);
    expect(err.to).toBe("/g/main/Login/Logins");
    expect(err.messageKey).toBe("errors:http.401");
  });

  it("another status gives the generic server error", () => {
    expect(httpMessageKey(418)).toBe("errors:http.generic");
  });

  it("a timeout gives the time-out message (999)", async () => {
    const hang = (r: Request) =>
      new Promise<Response>((_, reject) => r.signal.addEventListener("abort", () => reject(r.signal.reason)));
    const result = await vueapi("/main/getClientInfo", {}, ctx({ transport: hang, timeoutMs: 20 }));
    expect(result).toMatchObject({ ok: false, messageKey: "errors:http.timeout", status: 999 });
  });

  it("a timeout still reaches a hung call after garbage collection (the outgoing request is held)", async () => {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    // A transport that holds nothing: only the request's own signal leads back to the call.
    const hang = (r: Request) =>
      new Promise<Response>((_, reject) => r.signal.addEventListener("abort", () => reject(r.signal.reason)));
    const pending = vueapi("/main/getClientInfo", {}, ctx({ transport: hang, timeoutMs: 300 }));
    await new Promise((r) => setTimeout(r, 50));
    gc();
    gc();
    expect(await pending).toMatchObject({ ok: false, messageKey: "errors:http.timeout", status: 999 });
  });

  it("a timeout holds when the transport never follows the signal (no answer yet)", async () => {
    // As fetch does when garbage collection broke its weak chain of Requests: the abort never reaches it.
    const deaf = () => new Promise<Response>(() => {});
    const result = await vueapi("/main/getClientInfo", {}, ctx({ transport: deaf, timeoutMs: 20 }));
    expect(result).toMatchObject({ ok: false, messageKey: "errors:http.timeout", status: 999 });
  });

  it("a body that stops half-way: the time-out message, and the body is cancelled (its connection let go)", async () => {
    let cancelled: unknown = null;
    const stalled = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"code":0,"mess'));
          },
          cancel(reason) {
            cancelled = reason;
          },
        }),
        { headers: { "Content-Type": "application/json" } },
      );
    const result = await vueapi("/main/getClientInfo", {}, ctx({ transport: stalled, timeoutMs: 30 }));
    expect(result).toMatchObject({ ok: false, messageKey: "errors:http.timeout", status: 999 });
    expect(cancelled).toBeInstanceOf(DOMException);
    expect((cancelled as DOMException).name).toBe("TimeoutError");
  });

  it("an answer that comes after the time-out is not read: its body is cancelled", async () => {
    let cancel: () => void = () => {};
    const cancelled = new Promise<void>((resolve) => (cancel = resolve));
    let arrive: (r: Response) => void = () => {};
    const late = () => new Promise<Response>((resolve) => (arrive = resolve));
    const result = await vueapi("/main/getClientInfo", {}, ctx({ transport: late, timeoutMs: 20 }));
    expect(result).toMatchObject({ ok: false, messageKey: "errors:http.timeout" });
    arrive(new Response(new ReadableStream({ cancel: () => cancel() })));
    await cancelled;
  });

  it("a network failure gives the generic network message", async () => {
    const result = await vueapi(
      "/main/getClientInfo",
      {},
      ctx({
        transport: async () => {
          throw new TypeError("fetch failed");
        },
      }),
    );
    expect(result).toMatchObject({ ok: false, messageKey: "errors:http.network" });
  });

  it("the browser going away aborts the call and is not shown as an error", async () => {
    const controller = new AbortController();
    const hang = (r: Request) =>
      new Promise<Response>((_, reject) => r.signal.addEventListener("abort", () => reject(r.signal.reason)));
    const pending = vueapi(
      "/main/getClientInfo",
      {},
      ctx({ request: incoming(undefined, DESKTOP, controller.signal), transport: hang }),
    );
    controller.abort(new Error("client gone"));
    await expect(pending).rejects.toThrow("client gone");
  });

  it("data that does not match the contract gives the empty-data message", async () => {
    const result = await vueapi(
      "/main/getClientInfo",
      {},
      ctx({ transport: async () => reply({ code: 0, message: "", data: { nope: true } }) }),
    );
    expect(result).toMatchObject({ ok: false, messageKey: "errors:empty.dataError" });
    const empty = await vueapi("/main/getClientInfo", {}, ctx({ transport: async () => reply("") }));
    expect(empty).toMatchObject({ ok: false, messageKey: "errors:empty.dataError" });
  });
});

describe("route helpers over the request layer", () => {
  const viewer: Viewer = {
    language: "en",
    token: "tok",
    user: { userId: 1, userName: "alice1", realName: "爱", userType: 1, role: "user" },
    mobile: false,
  };

  it("an invalid session becomes a redirect that clears the session and flashes the message", async () => {
    const api = apiFor(incoming("http://portal.test/g/home/index"), viewer, {
      transport: async () => reply({ code: 1, message: "MSG_10009" }),
    });
    const thrown = await api.load("/main/getClientInfo", {}).catch((e) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect(thrown.status).toBe(302);
    expect(thrown.headers.get("Location")).toBe("/g/main/index");
    const cookies = thrown.headers.getSetCookie() as string[];
    expect(cookies.some((c) => c.startsWith("__session="))).toBe(true);
    expect(cookies.some((c) => c.startsWith("__flash="))).toBe(true);
  });

  it("a failure in a loader becomes a thrown Response for the error boundary", async () => {
    const api = apiFor(incoming(), viewer, { transport: async () => new Response("bad gateway", { status: 502 }) });
    const thrown = await api.load("/main/getClientInfo", {}).catch((e) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect(thrown.status).toBe(502);
    expect(await thrown.json()).toEqual({ messageKey: "errors:http.502" });
  });

  it("a timed-out call reaches the error boundary as 504 with the time-out message", async () => {
    const hang = (r: Request) =>
      new Promise<Response>((_, reject) => r.signal.addEventListener("abort", () => reject(r.signal.reason)));
    const api = apiFor(incoming(), viewer, { transport: hang });
    const previous = process.env.VUEAPI_TIMEOUT_MS;
    process.env.VUEAPI_TIMEOUT_MS = "30";
    resetEnvForTests();
    try {
      const thrown = await api.load("/main/getClientInfo", {}).catch((e) => e);
      expect(thrown).toBeInstanceOf(Response);
      expect(thrown.status).toBe(504);
      expect(await thrown.json()).toEqual({ messageKey: "errors:http.timeout" });
    } finally {
      if (previous === undefined) delete process.env.VUEAPI_TIMEOUT_MS;
      else process.env.VUEAPI_TIMEOUT_MS = previous;
      resetEnvForTests();
    }
    // A generous test timeout: the call itself times out after 30 ms, but a loaded CI machine imports slowly.
  }, 20_000);

  it("the status a failure shows: the backend's error status, 504 for a timeout, 502 when unreachable, else 500", () => {
    const transportFailure = (status: number) =>
      failureStatus({ status, code: null, messageKey: "errors:http.generic" });
    expect([403, 503, 999, 0, 200, 302].map(transportFailure)).toEqual([403, 503, 504, 502, 500, 500]);
  });

  it("a refusal the backend answered is never a 5xx: not found 404, invalid parameters 400, the rest 409", () => {
    const refusal = (message: string) => failureStatus({ status: 200, code: 1, messageKey: `errors:${message}` });
    expect(["MSG_10002", "MSG_40005", "MSG_40006", "MSG_10001", "MSG_39008", "MSG_32029"].map(refusal)).toEqual([
      404, 404, 404, 400, 409, 409,
    ]);
    // The backend's own error status wins.
    expect(failureStatus({ status: 400, code: 1, messageKey: "errors:MSG_10002" })).toBe(400);
  });

  it("an unknown or another user's id in a loader is a 404 page, not a 500", async () => {
    const api = apiFor(incoming(), viewer, {
      transport: async () => reply({ code: 1, message: "MSG_10002", data: null }),
    });
    const thrown = await api.load("/sys/system/clientInfo/h5billDetail", { billId: 7 }).catch((e) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect(thrown.status).toBe(404);
    expect(await thrown.json()).toEqual({ messageKey: "errors:MSG_10002" });
  });

  it("a silent answer (MSG_32029) to a load gives the path's empty data instead of an error", async () => {
    const api = apiFor(incoming(), viewer, {
      transport: async () => reply({ code: 1, message: "MSG_32029", data: null }),
    });
    expect(await api.load("/sys/system/message/list", { page: { pageIndex: 1, pageSize: 10 } })).toEqual({
      page: { rows: [], total: 0, pageIndex: 0, pageSize: 0 },
      unread: 0,
    });
    const user = await api.load("/main/getClientInfo", {});
    expect(user).toMatchObject({ userId: 0, userName: "", mobile: null });
    // An action still sees the silent failure, and shows nothing.
    expect(await api.call("/main/getClientInfo", {})).toMatchObject({ ok: false, silent: true });
  });
});
