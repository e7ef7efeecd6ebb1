import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { extensionAllows, sniffContent } from "#backend/kit/file-content.ts";
import { receiveUpload, type UploadRule } from "#backend/kit/uploads.ts";
import {
  centralDirectory,
  centralDirectoryOfTail,
  entriesProblem,
  isUnsafeEntryName,
  ZIP_LIMITS,
  ZipGuard,
} from "#backend/kit/zip-safety.ts";
import { wizardUploads } from "#backend/domains/service-wizard/rules.ts";
import { HTML, PDF, tinyPng, zerosZip } from "../fixtures/files.ts";

const MB = 1024 * 1024;

/** Rewrites the central directory's declared unpacked sizes to `size` (what a lying archive does). */
function lieAboutSizes(zip: Uint8Array, size: number): Uint8Array {
  const bytes = Buffer.from(zip);
  for (let at = 0; at < bytes.length - 4; at += 1) {
    if (bytes.readUInt32LE(at) === 0x02014b50) bytes.writeUInt32LE(size, at + 24);
  }
  return bytes;
}

async function guardVerdict(zip: Uint8Array, slice = 64 * 1024) {
  const guard = new ZipGuard();
  for (let at = 0; at < zip.length; at += slice) {
    const problem = await guard.push(zip.subarray(at, at + slice));
    if (problem) return { problem, stoppedAt: at + slice };
  }
  return { problem: await guard.finish(), stoppedAt: zip.length };
}

function readerOf(bytes: Uint8Array, chunk = 64 * 1024) {
  let at = 0;
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      pulled += 1;
      controller.enqueue(bytes.subarray(at, at + chunk));
      at += chunk;
    },
  });
  return { reader: stream.getReader(), pulledBytes: () => Math.min(at, bytes.length), pulled: () => pulled };
}

describe("zip safety (backend/kit/zip-safety.ts, shared with the test job)", () => {
  it("calls entry names that leave the folder unsafe", () => {
    for (const name of ["../evil.sh", "a/../../b", "/etc/passwd", "\\windows\\x", "C:/x", "c:\\x", "a\\..\\b", "a\0b"])
      expect(isUnsafeEntryName(name), name).toBe(true);
    for (const name of ["asset/main.go", "a..b/c", "..hidden", "dir/", "x/.../y"])
      expect(isUnsafeEntryName(name), name).toBe(false);
  });

  it("refuses by the central directory: unsafe names, too many entries, declared size or ratio", () => {
    const ok = { name: "a.go", size: 100, originalSize: 1000 };
    expect(entriesProblem([ok])).toBeNull();
    expect(entriesProblem([ok, { ...ok, name: "../x" }])).toBe("unsafePath");
    expect(
      entriesProblem(Array.from({ length: ZIP_LIMITS.maxEntries + 1 }, (_, i) => ({ ...ok, name: `f${i}` }))),
    ).toBe("bomb");
    expect(entriesProblem([{ name: "a", size: 10 * MB, originalSize: ZIP_LIMITS.maxTotalUncompressed + 1 }])).toBe(
      "bomb",
    );
    expect(entriesProblem([{ name: "a", size: 1000, originalSize: 1000 * (ZIP_LIMITS.maxRatio + 1) }])).toBe("bomb");
  });

  it("lets an ordinary chaincode zip through, streamed in pieces", async () => {
    const zip = zipSync({
      "asset/main.go": strToU8("package main\nfunc main() {}\n"),
      "asset/go.mod": strToU8("module asset\n"),
    });
    expect((await guardVerdict(zip, 7)).problem).toBeNull();
  });

  it("refuses a zip with ../ or absolute entries as they arrive", async () => {
    expect((await guardVerdict(zipSync({ "../../etc/cron.d/x": strToU8("* * * * * root sh\n") }))).problem).toBe(
      "unsafePath",
    );
    expect((await guardVerdict(zipSync({ "/tmp/x": strToU8("x") }))).problem).toBe("unsafePath");
  });

  it("refuses a bomb by what it really inflates to, before its end arrives, whatever its headers say", async () => {
    const bomb = lieAboutSizes(zerosZip((2 * ZIP_LIMITS.maxTotalUncompressed) / MB), 1000);
    // The central directory alone would let it through: it declares 1000 bytes.
    const declared = centralDirectory(bomb)!;
    expect(declared[0].originalSize).toBe(1000);
    expect(entriesProblem(declared)).toBeNull();
    const verdict = await guardVerdict(bomb, 16 * 1024);
    expect(verdict.problem).toBe("bomb");
    expect(verdict.stoppedAt).toBeLessThan(bomb.length);
  });

  it("refuses a small zip compressed beyond the sane ratio", async () => {
    const zip = zerosZip(10);
    expect(zip.length * ZIP_LIMITS.maxRatio).toBeLessThan(10 * MB);
    expect((await guardVerdict(zip)).problem).toBe("bomb");
  });

  it("refuses too many entries and bytes that are not a zip", async () => {
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i <= ZIP_LIMITS.maxEntries; i += 1) many[`f${i}.txt`] = strToU8(`${i}`);
    expect((await guardVerdict(zipSync(many, { level: 0 }))).problem).toBe("bomb");
    expect((await guardVerdict(Buffer.concat([Buffer.from("PK\x03\x04"), Buffer.alloc(5000, 7)]))).problem).toBe(
      "invalid",
    );
  });
});

describe("content by magic bytes (backend/kit/file-content.ts)", () => {
  it("knows a PNG, a PDF, a zip, text and HTML", async () => {
    expect(await sniffContent(tinyPng())).toEqual({ content: "png", mime: "image/png" });
    expect(await sniffContent(PDF)).toEqual({ content: "pdf", mime: "application/pdf" });
    expect((await sniffContent(zipSync({ "a.txt": strToU8("a") })))?.content).toBe("zip");
    expect(await sniffContent(Buffer.from("A whitepaper.\nSecond line, 中文.\n"))).toEqual({
      content: "text",
      mime: "text/plain",
    });
    // HTML is neither a known binary type nor plain text.
    expect(await sniffContent(HTML)).toBeNull();
    expect(await sniffContent(Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00]))).toBeNull();
  });

  it("accepts a content only under a name whose extension allows it", () => {
    expect(extensionAllows("manual.pdf", "pdf")).toBe(true);
    expect(extensionAllows("manual.pdf", "text")).toBe(false);
    expect(extensionAllows("cover.jpg", "png")).toBe(true);
    expect(extensionAllows("cover.png", "pdf")).toBe(false);
    expect(extensionAllows("report.docx", "zip")).toBe(true);
    expect(extensionAllows("noextension", "text")).toBe(false);
  });
});

describe("receiving an upload (backend/kit/uploads.ts)", () => {
  const attachment: UploadRule = wizardUploads.attachment;
  const chaincode: UploadRule = wizardUploads.chaincode;

  it("refuses an HTML page named .pdf, and takes a real PDF", async () => {
    expect(await receiveUpload(readerOf(HTML).reader, "manual.pdf", 20 * MB, attachment)).toMatchObject({
      ok: false,
      reason: "wrongType",
      messageKey: "wizard:validation.file.attachmentContent",
    });
    expect(await receiveUpload(readerOf(PDF).reader, "manual.pdf", 20 * MB, attachment)).toMatchObject({
      ok: true,
      mime: "application/pdf",
    });
  });

  it("takes a PNG named .png as a cover", async () => {
    const received = await receiveUpload(readerOf(tinyPng()).reader, "cover.png", 5 * MB, wizardUploads.cover);
    expect(received).toMatchObject({ ok: true, mime: "image/png" });
  });

  it("stops reading at the first chunk past the limit", async () => {
    const body = readerOf(Buffer.alloc(3 * MB, "All work and no play. "));
    const received = await receiveUpload(body.reader, "blob.txt", MB, attachment);
    expect(received).toMatchObject({
      ok: false,
      reason: "tooLarge",
      messageKey: "wizard:validation.file.attachmentTooLarge",
    });
    expect(body.pulledBytes()).toBeLessThanOrEqual(MB + 2 * 64 * 1024);
  });

  it("refuses a zip with ../ entries, or a bomb, as a chaincode package", async () => {
    const evil = zipSync({ "asset/main.go": strToU8("package main\n"), "../../x.go": strToU8("package x\n") });
    expect(await receiveUpload(readerOf(evil).reader, "asset.zip", 60 * MB, chaincode)).toMatchObject({
      ok: false,
      reason: "unsafePath",
      messageKey: "wizard:validation.file.zipUnsafe",
    });
    const bomb = zerosZip((2 * ZIP_LIMITS.maxTotalUncompressed) / MB);
    const body = readerOf(bomb, 16 * 1024);
    expect(await receiveUpload(body.reader, "asset.zip", 60 * MB, chaincode)).toMatchObject({
      ok: false,
      reason: "bomb",
      messageKey: "wizard:validation.file.zipBomb",
    });
    expect(body.pulledBytes()).toBeLessThan(bomb.length);
  });

  it("refuses an empty file as not chosen", async () => {
    expect(await receiveUpload(readerOf(new Uint8Array(0)).reader, "a.txt", MB, attachment)).toMatchObject({
      ok: false,
      reason: "required",
    });
  });
});

describe("the central directory from a zip's last bytes (docs/decisions/053: an upload is never held whole)", () => {
  it("reads the same entries from the tail as from the whole archive", () => {
    const big = new Uint8Array(3 * MB);
    for (let i = 0; i < big.length; i++) big[i] = (i * 2654435761) >>> 24;
    const zip = zipSync({ "asset/blob.bin": [big, { level: 0 }], "asset/main.go": strToU8("package main\n") });
    const tailStart = zip.length - 64 * 1024;
    expect(centralDirectoryOfTail(zip.subarray(tailStart), tailStart)).toEqual(centralDirectory(zip));
    expect(centralDirectoryOfTail(zip, 0)).toEqual(centralDirectory(zip));
    // A tail that does not hold the directory is not readable.
    expect(centralDirectoryOfTail(zip.subarray(zip.length - 30), zip.length - 30)).toBeNull();
  });
});
