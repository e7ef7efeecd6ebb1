import { describe, expect, it } from "vitest";
import { issueToken } from "#backend/http/auth.ts";
import { users } from "#backend/db/tables.ts";
import { inProcessVueapi } from "./in-process.ts";

/*
 * The request limits of docs/decisions/023 inside the test's own process, where the service's memory is the
 * test's: process.memoryUsage() is sampled while a body far over the limit is sent, and the body is made as
 * it is read, so what the service pulled from it before answering is known exactly.
 */
const service = inProcessVueapi("limits", { TEST_CAPTCHA: "LIM1" });
const MB = 1024 * 1024;

/**
 * A body of `total` bytes made as it is read, in 64 KB pieces, starting with `head`; `pulled()` counts what was
 * read. `onPull` runs at each piece: a reader that never yields to timers is still measured while it reads.
 */
function generatedBody(total: number, head: Uint8Array, fill: number, onPull: () => void = () => undefined) {
  const piece = new Uint8Array(64 * 1024).fill(fill);
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      onPull();
      if (pulled >= total) return controller.close();
      const chunk = pulled === 0 ? Buffer.concat([head, piece.subarray(head.length)]) : piece;
      // A piece of its own, as from a socket (one shared buffer would cost nothing to keep).
      const next = chunk.slice(0, Math.min(chunk.length, total - pulled));
      pulled += next.length;
      controller.enqueue(next);
    },
  });
  return { stream, pulled: () => pulled };
}

/**
 * The memory this process holds (JS heap and buffers outside it, resident set): before, and the highest while
 * `work` runs, sampled every 5 ms and whenever `sample` is called.
 */
function memoryProbe() {
  const held = () => {
    const m = process.memoryUsage();
    return { rss: m.rss, data: m.heapUsed + m.arrayBuffers };
  };
  const before = held();
  const peak = { ...before };
  const sample = () => {
    const now = held();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.data = Math.max(peak.data, now.data);
  };
  const timer = setInterval(sample, 5);
  const growth = () => ({ rss: peak.rss - before.rss, data: peak.data - before.data });
  return {
    sample,
    /** The growth so far. */
    growth,
    stop: () => {
      clearInterval(timer);
      sample();
      return { grew: growth(), before };
    },
  };
}

const post = (path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  service.handle(
    new Request(`http://test.invalid/vueapi${path}`, { method: "POST", headers, body, duplex: "half" } as RequestInit),
  );

describe("request limits in the service's own process (docs/decisions/023)", () => {
  it("an 85 MB JSON body: 413 after reading just past 1 MB, and the process's memory does not grow by the body", async () => {
    const probe = memoryProbe();
    const body = generatedBody(85 * MB, Buffer.from('{"captchaKey":"'), 0x61, probe.sample);
    const res = await post("/anon/captcha/create", body.stream, { "Content-Type": "application/json" });
    const pulledAtAnswer = body.pulled();
    const untilAnswer = probe.growth();
    // The rest is read and thrown away after the answer: garbage for the collector, not memory kept.
    await expect.poll(() => body.pulled(), { timeout: 15_000 }).toBe(85 * MB);
    const { grew, before } = probe.stop();
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ code: 1, message: "MSG_10413", data: null });
    // The answer came after 1 MB (and what the stream plumbing reads ahead), not 85 MB; the rest was read and thrown away.
    expect(pulledAtAnswer).toBeLessThan(2 * MB);
    // Reading the whole body (as request.json() did) holds all 85 MB until the answer; this holds about one.
    expect(untilAnswer.data).toBeLessThan(16 * MB);
    expect(grew.rss).toBeLessThan(64 * MB);
    console.info(
      `in-process 85 MB JSON: 413 after ${(pulledAtAnswer / MB).toFixed(2)} MB read; heap+buffers ${Math.round(before.data / MB)} MB, +${Math.round(untilAnswer.data / MB)} MB until the answer; RSS ${Math.round(before.rss / MB)} MB, +${Math.round(grew.rss / MB)} MB at most, draining included`,
    );
  });

  it("a 61 MB chaincode zip: 413 as soon as 60 MB are passed, while the rest is still to come", async () => {
    const [row] = await service.services.db
      .insert(users)
      .values({
        userName: `lim${Date.now().toString(36)}`,
        passwordHash: "x",
        realName: "测试",
        email: `lim${Date.now()}@example.com`,
        userType: 1,
        activatedAt: new Date(),
      })
      .returning();
    const token = await issueToken(service.services, row.id);
    const name = Buffer.from("blob.bin");
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(10, 4);
    header.writeUInt32LE(61 * MB, 18);
    header.writeUInt32LE(61 * MB, 22);
    header.writeUInt16LE(name.length, 26);
    const body = generatedBody(61 * MB + 38, Buffer.concat([header, name]), 0);
    const res = await post("/upload/chaincode", body.stream, {
      Authorization: `Bearer ${token}`,
      "X-File-Name": "asset.zip",
    });
    const pulledAtAnswer = body.pulled();
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      message: "MSG_20020",
      data: { fieldErrors: { file: ["wizard:validation.file.zipTooLarge"] } },
    });
    expect(pulledAtAnswer).toBeGreaterThan(60 * MB);
    expect(pulledAtAnswer).toBeLessThan(61 * MB);
  });
});
