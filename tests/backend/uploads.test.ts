import { readFileSync } from "node:fs";
import { strToU8, zipSync } from "fflate";
import { describe, expect, inject, it } from "vitest";
import { HTML, PDF, tinyPng, zerosZip } from "../fixtures/files.ts";
import { activeUser, call, raw, upload, uploadRaw } from "./client.ts";

/*
 * Request limits and uploads over HTTP against the built server (docs/decisions/023): a /vueapi JSON
 * body is at most 1 MB, counted while it arrives; files are streamed to /vueapi/upload/<kind> and checked
 * by size, magic bytes and zip safety while they arrive.
 */

const MB = 1024 * 1024;

/** The server's resident memory now (Linux /proc). */
function serverRss(): number {
  const status = readFileSync(`/proc/${inject("serverPid")}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/**
 * A body of `total` bytes made as it is sent (the test never holds it), in 64 KB pieces, starting with
 * `head`; `sent()` is how many bytes the server has asked for so far.
 */
function generatedBody(total: number, head: Uint8Array = new Uint8Array(0), fill = 0x20) {
  const piece = new Uint8Array(64 * 1024).fill(fill);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const chunk =
        sent === 0 && head.length
          ? Buffer.concat([head, piece.subarray(0, Math.max(0, piece.length - head.length))])
          : piece;
      const next = chunk.subarray(0, Math.min(chunk.length, total - sent));
      sent += next.length;
      controller.enqueue(next);
    },
  });
  return { stream, sent: () => sent };
}

/** While `work` runs, the server's highest resident memory, sampled every 10 ms. */
async function peakRssDuring<T>(work: () => Promise<T>): Promise<{ result: T; before: number; peak: number }> {
  const before = serverRss();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, serverRss())), 10);
  try {
    const result = await work();
    peak = Math.max(peak, serverRss());
    return { result, before, peak };
  } finally {
    clearInterval(timer);
  }
}

/** A zip whose only entry is `mb` MB of zeros stored as is, its header saying so: made as it is sent. */
function storedZipHead(mb: number) {
  const name = Buffer.from("blob.bin");
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(10, 4);
  header.writeUInt32LE(mb * MB, 18);
  header.writeUInt32LE(mb * MB, 22);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, name]);
}

describe("the /vueapi JSON body limit (1 MB, counted while it arrives)", () => {
  it("an 85 MB JSON body streamed without Content-Length is a 413 with the envelope, at once, and the server's memory does not grow by it", async () => {
    const body = generatedBody(85 * MB, Buffer.from('{"captchaKey":"'), 0x61);
    const started = Date.now();
    const {
      result: res,
      before,
      peak,
    } = await peakRssDuring(() =>
      fetch(`${inject("baseUrl")}/vueapi/anon/captcha/create`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: body.stream,
        duplex: "half",
      } as RequestInit),
    );
    const elapsed = Date.now() - started;
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ code: 1, message: "MSG_10413", data: null });
    // The body is read up to 1 MB and the rest thrown away as it comes: nothing near 85 MB is kept.
    expect(peak - before).toBeLessThan(32 * MB);
    console.info(
      `85 MB JSON (chunked): 413 in ${elapsed} ms; server RSS ${Math.round(before / MB)} MB before, ${Math.round(peak / MB)} MB at most during`,
    );
  });

  it("a body that declares more than 1 MB is a 413 before it is read", async () => {
    const bytes = Buffer.alloc(85 * MB, 0x61);
    const {
      result: res,
      before,
      peak,
    } = await peakRssDuring(() => raw("/anon/captcha/create", bytes.toString("latin1")));
    expect(res.status).toBe(413);
    expect((await res.json()).message).toBe("MSG_10413");
    expect(peak - before).toBeLessThan(32 * MB);
    console.info(
      `85 MB JSON (Content-Length): server RSS ${Math.round(before / MB)} MB before, ${Math.round(peak / MB)} MB at most during`,
    );
  });

  it("a body within the limit is answered as before", async () => {
    const res = await call("/anon/captcha/create", { padding: "x".repeat(900 * 1024) });
    expect(res.code).toBe(0);
  });
});

describe("uploads (POST /vueapi/upload/<kind>)", () => {
  it("a 61 MB chaincode zip is a 413 while it streams: reading stops at 60 MB", async () => {
    const { token } = await activeUser("upz");
    const body = generatedBody(61 * MB, storedZipHead(61), 0);
    const {
      result: res,
      before,
      peak,
    } = await peakRssDuring(() => uploadRaw("chaincode", "asset.zip", body.stream, token));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      code: 1,
      message: "MSG_20020",
      data: { fieldErrors: { file: ["wizard:validation.file.zipTooLarge"] } },
    });
    // The answer came as soon as the 60 MB were passed, not after the whole body was read into memory.
    expect(peak - before).toBeLessThan(61 * MB * 2);
  });

  it("refuses a file larger than its kind that says so, before reading it", async () => {
    const { token } = await activeUser("upd");
    const res = await uploadRaw("cover", "cover.png", Buffer.alloc(6 * MB), token);
    expect(res.status).toBe(413);
    expect((await res.json()).data.fieldErrors.file).toEqual(["wizard:validation.file.coverTooLarge"]);
  });

  it("refuses an HTML page named .pdf, takes a PDF and a PNG named for what they are", async () => {
    const { token } = await activeUser("upt");
    const html = await upload("attachment", "manual.pdf", HTML, token);
    expect(html).toMatchObject({
      code: 1,
      message: "MSG_20021",
      data: { fieldErrors: { file: ["wizard:validation.file.attachmentContent"] } },
    });
    expect(await upload("cover", "cover.png", HTML, token)).toMatchObject({ message: "MSG_20021" });
    const pdf = await upload("attachment", "manual.pdf", PDF, token);
    expect(pdf).toMatchObject({ code: 0, data: { name: "manual.pdf", mime: "application/pdf", size: PDF.length } });
    const png = await upload("cover", "cover.png", tinyPng(), token);
    expect(png).toMatchObject({ code: 0, data: { name: "cover.png", mime: "image/png", size: tinyPng().length } });
    expect(png.data.uploadId).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("refuses a zip with ../ or absolute entries, and zip bombs, at upload", async () => {
    const { token } = await activeUser("upb");
    const slip = zipSync({
      "asset/main.go": strToU8("package main\n"),
      "../../../etc/cron.d/job": strToU8("* * * * * root sh\n"),
    });
    expect(await upload("chaincode", "asset.zip", slip, token)).toMatchObject({
      message: "MSG_20021",
      data: { fieldErrors: { file: ["wizard:validation.file.zipUnsafe"] } },
    });
    expect(
      (await upload("attachment", "bundle.zip", zipSync({ "/etc/passwd": strToU8("x") }), token)).data.fieldErrors.file,
    ).toEqual(["wizard:validation.file.zipUnsafe"]);
    // 400 MB of zeros in a 400 KB zip: refused once what it really inflates to passes 200 MB.
    const bomb = zerosZip(400);
    const refused = await upload("chaincode", "asset.zip", bomb, token);
    expect(refused).toMatchObject({
      message: "MSG_20021",
      data: { fieldErrors: { file: ["wizard:validation.file.zipBomb"] } },
    });
    // A small zip compressed a thousand times over is a bomb too (ratio).
    expect((await upload("chaincode", "asset.zip", zerosZip(5), token)).data.fieldErrors.file).toEqual([
      "wizard:validation.file.zipBomb",
    ]);
    // An ordinary one passes.
    expect(
      (await upload("chaincode", "asset.zip", zipSync({ "asset/main.go": strToU8("package main\n") }), token)).code,
    ).toBe(0);
  });

  it("needs a login except for the licence of a registration; unknown kinds are not found", async () => {
    expect(await upload("cover", "cover.png", tinyPng())).toMatchObject({ code: 3, message: "MSG_10004" });
    expect(await upload("licence", "licence.png", tinyPng())).toMatchObject({ code: 0 });
    const unknown = await uploadRaw("avatar", "a.png", Buffer.from(tinyPng()));
    expect(unknown.status).toBe(404);
    const get = await fetch(`${inject("baseUrl")}/vueapi/upload/cover`);
    expect(get.status).toBe(405);
  });
});

describe("endpoints' declared body limits", () => {
  it("the sandbox checkout (64 KB) refuses a larger body streamed without Content-Length with 413", async () => {
    const { token } = await activeUser("upe");
    const created = await call(
      "/sys/account/recharge",
      {
        payType: "GT0001",
        amount: "5.00",
        idempotencyKey: `up${Date.now().toString(36)}xxxxxxxxxxxxxxxxxxxx`.slice(0, 32),
      },
      token,
    );
    expect(created.code, JSON.stringify(created)).toBe(0);
    const path = new URL(created.data.redirectUrl).pathname;
    const body = generatedBody(2 * MB, Buffer.from("action=pay&name="), 0x61);
    const res = await fetch(`${inject("baseUrl")}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: body.stream,
      duplex: "half",
      redirect: "manual",
    } as RequestInit);
    expect(res.status).toBe(413);
    // Within the limit, the same page answers (cancel goes back to the merchant).
    const cancel = await fetch(`${inject("baseUrl")}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "action=cancel",
      redirect: "manual",
    });
    expect(cancel.status).toBe(303);
  });
});
