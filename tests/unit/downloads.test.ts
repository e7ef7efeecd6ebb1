import "./setup-env.ts";
import { describe, expect, it, vi } from "vitest";

// The request layer is tested against fake transports; the embedded backend is not loaded.
vi.mock("#backend/index.ts", () => ({ handleVueapi: vi.fn(), startBackend: vi.fn() }));
import { fileResponse } from "#app/lib/downloads.server.ts";
import { vueapiDownload, type CallContext } from "#app/lib/vueapi.server.ts";
import { contentDisposition, continuesDownload, rangeOf } from "#backend/http/download.ts";

/**
 * Downloads out of the JSON envelope (issue 29 item 1, docs/decisions/053): the portal's request layer sends the
 * payload as JSON to /download/<kind> with the browser's Range and conditions, and hands the bytes on as they
 * come (the same exchange with VUEAPI_URL, over fetch); a refusal is the envelope, mapped like any call's.
 */
function ctx(request: Request, transport: (r: Request) => Promise<Response>): CallContext {
  return { request, language: "en", token: "tok", transport };
}

describe("the request layer's downloads", () => {
  it("posts the payload with the browser's Range and If-None-Match, and answers the bytes as a stream", async () => {
    let seen: Request | undefined;
    let body: unknown;
    const browser = new Request("http://portal.test/g/home/x", {
      headers: { Range: "bytes=10-19", "If-None-Match": '"file-3"', Cookie: "s=1" },
    });
    const result = await vueapiDownload(
      "support-attachment",
      { ticketId: 7 },
      ctx(browser, async (r) => {
        seen = r;
        body = await r.json();
        return new Response("0123456789", {
          status: 206,
          headers: {
            "Content-Type": "text/plain; charset=utf-8",
            "Content-Range": "bytes 10-19/100",
            "Content-Length": "10",
            ETag: '"file-3"',
            "Content-Disposition": "attachment; filename=\"a.txt\"; filename*=UTF-8''a.txt",
          },
        });
      }),
    );
    expect(seen!.url).toMatch(/\/vueapi\/download\/support-attachment$/);
    expect(seen!.method).toBe("POST");
    expect(seen!.headers.get("Range")).toBe("bytes=10-19");
    expect(seen!.headers.get("If-None-Match")).toBe('"file-3"');
    expect(seen!.headers.get("Authorization")).toBe("Bearer tok");
    expect(seen!.headers.get("Cookie")).toBeNull();
    expect(body).toMatchObject({ ticketId: 7, userLanguage: "en" });
    expect(result.ok).toBe(true);
    const passed = fileResponse((result as { data: Response }).data, { "Cache-Control": "private, no-store" });
    expect(passed.status).toBe(206);
    expect(passed.headers.get("Content-Range")).toBe("bytes 10-19/100");
    expect(passed.headers.get("Content-Disposition")).toMatch(/^attachment; filename="a\.txt"/);
    expect(passed.headers.get("Cache-Control")).toBe("private, no-store, no-transform"); // a range: no-transform
    expect(passed.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(await passed.text()).toBe("0123456789");
  });

  it("maps a refusal in the envelope like any call's", async () => {
    const result = await vueapiDownload(
      "support-attachment",
      { ticketId: 7 },
      ctx(
        new Request("http://portal.test/g/home/x"),
        async () =>
          new Response(JSON.stringify({ code: 1, message: "MSG_10002", data: null }), {
            headers: { "Content-Type": "application/json; charset=utf-8" },
          }),
      ),
    );
    expect(result).toMatchObject({ ok: false, messageKey: "errors:MSG_10002" });
  });

  it("passes a 304 on without a body", async () => {
    const result = await vueapiDownload(
      "wizard-cover",
      { appId: 1 },
      ctx(
        new Request("http://portal.test/x"),
        async () => new Response(null, { status: 304, headers: { ETag: '"file-1"' } }),
      ),
    );
    const passed = fileResponse((result as { data: Response }).data);
    expect(passed.status).toBe(304);
    expect(passed.headers.get("ETag")).toBe('"file-1"');
  });
});

describe("the backend's ranges and names", () => {
  it("reads one byte range, a suffix, an open end; refuses past the end; ignores several", () => {
    expect(rangeOf("bytes=0-9", 100)).toEqual({ start: 0, end: 9 });
    expect(rangeOf("bytes=90-", 100)).toEqual({ start: 90, end: 99 });
    expect(rangeOf("bytes=95-200", 100)).toEqual({ start: 95, end: 99 });
    expect(rangeOf("bytes=-10", 100)).toEqual({ start: 90, end: 99 });
    expect(rangeOf("bytes=-200", 100)).toEqual({ start: 0, end: 99 });
    expect(rangeOf("bytes=100-", 100)).toBe("unsatisfiable");
    expect(rangeOf("bytes=5-2", 100)).toBe("unsatisfiable");
    expect(rangeOf("bytes=0-1,5-6", 100)).toBeNull();
    expect(rangeOf("items=0-1", 100)).toBeNull();
    expect(rangeOf(null, 100)).toBeNull();
    expect(continuesDownload("bytes=0-")).toBe(false);
    expect(continuesDownload("bytes=500-")).toBe(true);
    expect(continuesDownload(null)).toBe(false);
  });

  it("names the file in ASCII and in UTF-8", () => {
    expect(contentDisposition("attachment", '说明 "v1".pdf')).toBe(
      `attachment; filename="__ _v1_.pdf"; filename*=UTF-8''${encodeURIComponent('说明 "v1".pdf')}`,
    );
  });
});
