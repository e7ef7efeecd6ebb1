import { describe, expect, it } from "vitest";
import type { UploadKind } from "#contract/uploads.ts";
import { parseFormWithUploads, uploadError, uploadRef, type UploadField } from "#app/lib/uploads.server.ts";
import type { OutgoingFile } from "#app/lib/vueapi.server.ts";

const MB = 1024 * 1024;

/** A backend's upload path as the portal sees it: reads the stream, counting; refuses past `limit` bytes. */
function fakeBackend(limit: number) {
  const received: { kind: UploadKind; name: string; bytes: number }[] = [];
  return {
    received,
    upload: async (kind: UploadKind, file: OutgoingFile) => {
      let bytes = 0;
      const reader = file.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        if (bytes > limit) {
          reader.releaseLock();
          received.push({ kind, name: file.name, bytes });
          return {
            ok: false as const,
            messageKey: "errors:MSG_20020",
            fieldErrors: { file: ["too large"] },
            silent: false,
            code: 1,
            status: 413,
          };
        }
      }
      received.push({ kind, name: file.name, bytes });
      return {
        ok: true as const,
        data: { uploadId: `id${"x".repeat(40)}`, name: file.name, size: bytes, mime: "image/png" },
      };
    },
  };
}

const coverField: UploadField = {
  kind: "cover",
  problem: (f) => (f.name.endsWith(".png") ? null : "wrong name"),
  tooLarge: "cover too large",
};

/** A multipart request whose body arrives in 64 KB pieces, as over a socket. */
async function multipart(parts: [string, string | File][]) {
  const form = new FormData();
  for (const [name, value] of parts) form.append(name, value);
  const whole = new Request("http://portal.invalid/form", { method: "POST", body: form });
  const bytes = new Uint8Array(await whole.arrayBuffer());
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + 64 * 1024));
      at += 64 * 1024;
    },
  });
  return new Request(whole.url, {
    method: "POST",
    headers: { "Content-Type": whole.headers.get("Content-Type")! },
    body,
    duplex: "half",
  } as RequestInit);
}

describe("multipart forms with files streamed to the backend (app/lib/uploads.server.ts)", () => {
  it("streams a chosen file on and puts its upload id in the form; text fields around it are kept", async () => {
    const backend = fakeBackend(5 * MB);
    const request = await multipart([
      ["name", "Trade"],
      ["cover", new File([new Uint8Array(300 * 1024)], "c.png", { type: "image/png" })],
      ["intent", "saveBasic"],
    ]);
    const { formData, uploads } = await parseFormWithUploads(request, backend, { cover: coverField });
    expect(formData.get("name")).toBe("Trade");
    expect(formData.get("intent")).toBe("saveBasic");
    expect(uploads.cover).toMatchObject({ status: "uploaded", name: "c.png", size: 300 * 1024 });
    expect(formData.get("cover")).toBe((uploads.cover as { uploadId: string }).uploadId);
    expect(uploadRef(uploads.cover)).toEqual({ uploadId: (uploads.cover as { uploadId: string }).uploadId });
    expect(backend.received).toEqual([{ kind: "cover", name: "c.png", bytes: 300 * 1024 }]);
  });

  it("cuts a file over its kind's limit off while it streams, and keeps the rest of the form", async () => {
    const backend = fakeBackend(5 * MB);
    const request = await multipart([
      ["cover", new File([new Uint8Array(7 * MB)], "big.png", { type: "image/png" })],
      ["name", "After the file"],
    ]);
    const { formData, uploads } = await parseFormWithUploads(request, backend, { cover: coverField });
    expect(uploadError(uploads.cover, null)).toBe("cover too large");
    expect(formData.get("name")).toBe("After the file");
    // The backend saw the limit passed, not the 7 MB.
    expect(backend.received[0].bytes).toBeGreaterThan(5 * MB);
    expect(backend.received[0].bytes).toBeLessThan(5 * MB + 256 * 1024);
  });

  it("sends nothing for a name the field refuses, or for an empty file input", async () => {
    const backend = fakeBackend(5 * MB);
    const named = await parseFormWithUploads(await multipart([["cover", new File(["x"], "c.gif")]]), backend, {
      cover: coverField,
    });
    expect(uploadError(named.uploads.cover, null)).toBe("wrong name");
    const empty = await parseFormWithUploads(await multipart([["cover", new File([], "")]]), backend, {
      cover: coverField,
    });
    expect(empty.uploads.cover).toEqual({ status: "none" });
    expect(uploadError(empty.uploads.cover, "required")).toBe("required");
    expect(backend.received).toEqual([]);
  });

  it("refuses a whole form larger than twice its files' limits with 413, and a text field over its limit", async () => {
    const backend = fakeBackend(5 * MB);
    const huge = await multipart([
      ["cover", new File([new Uint8Array(9 * MB)], "a.png")],
      ["other", new File([new Uint8Array(3 * MB)], "b.bin")],
    ]);
    const error = await parseFormWithUploads(huge, backend, { cover: coverField }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).status).toBe(413);
    const text = await parseFormWithUploads(await multipart([["note", "x".repeat(70 * 1024)]]), backend, {
      cover: coverField,
    }).catch((e: unknown) => e);
    expect((text as Response).status).toBe(413);
  });
});
