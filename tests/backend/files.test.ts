import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { CHUNK_BYTES } from "#backend/kit/blobs/postgres.ts";
import { migrateFileBytes } from "#backend/kit/file-migration.ts";
import { startS3Server } from "../support/s3-server.ts";
import {
  callVueapi,
  downloadVueapi,
  insertedUser,
  openVueapi,
  ownDatabase,
  sessionOf,
  uploadVueapi,
  type Vueapi,
} from "./in-process.ts";
import { uniqueName } from "./client.ts";

/**
 * The blob store of stored files (issue 29 item 1, docs/decisions/053) on each of its backends: the embedded
 * database's DATA_DIR/files, PostgreSQL's chunks (when the suite runs with DATABASE_URL), and a FILES_URL bucket
 * (s3rver, started here). On each: an upload streams to the store (the row keeps the address, no bytes), the
 * download path answers the bytes with Range, and the sweep removes the blobs no row names.
 */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** 3 MB of text that differs at every position (a range that crosses a chunk's end shows it). */
function text(bytes: number, seed: string) {
  const line = Buffer.from(`${seed} `);
  const out = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) out[i] = i % 97 === 96 ? 10 : 33 + ((i * 7 + line[i % line.length]!) % 90);
  return out;
}

type Backend = { name: string; kind: "fs" | "postgres" | "s3"; vars: () => Promise<Record<string, string>> };

let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
const backends: Backend[] = [
  process.env.DATABASE_URL
    ? {
        name: "PostgreSQL, in chunks of at most 1 MB",
        kind: "postgres",
        vars: async () => ({
          DATABASE_URL: (await ownDatabase(process.env.DATABASE_URL))!,
          PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
        }),
      }
    : { name: "the embedded database, DATA_DIR/files", kind: "fs", vars: async () => ({}) },
  {
    name: "a FILES_URL bucket (s3rver)",
    kind: "s3",
    vars: async () => {
      s3 ??= await startS3Server("bsn-files", "portal");
      return { FILES_URL: s3.filesUrl };
    },
  },
];

afterAll(async () => {
  await s3?.stop();
});

describe.each(backends)("stored files on $name", (backend) => {
  let service: Vueapi;
  let token: string;
  let other: string;
  beforeAll(async () => {
    service = await openVueapi(`files-${backend.kind}`, { TEST_FIXTURES: "1", ...(await backend.vars()) });
    token = await sessionOf(service, await insertedUser(service, uniqueName("fil")));
    other = await sessionOf(service, await insertedUser(service, uniqueName("fio")));
  }, 120_000);
  afterAll(async () => {
    await service?.close();
  });

  const db = () => service.services.db;
  const store = () => service.services.files;

  async function attachment(bytes: Buffer, name = "log.txt") {
    const uploaded = await uploadVueapi(service, "support", name, bytes, token);
    expect(uploaded.code, JSON.stringify(uploaded)).toBe(0);
    const ticket = await callVueapi(
      service,
      "/sys/technicalSupport/insertTech",
      { question: "The node logs", contactEmail: "a@example.com", file: { uploadId: uploaded.data.uploadId } },
      token,
    );
    expect(ticket.code, JSON.stringify(ticket)).toBe(0);
    const [row] = rowsOf<{ id: number; blob: string; size: number }>(
      await db().execute(sql`SELECT id, blob, size FROM files WHERE upload_id = ${uploaded.data.uploadId}`),
    );
    return { ticketId: ticket.data.ticketId as number, row: row! };
  }

  const blobsKept = async () => {
    const out: string[] = [];
    for await (const address of store().blobs.list()) out.push(address);
    return out;
  };

  it("keeps an upload's bytes in its store, by content address; the row keeps none", async () => {
    expect(store().blobs.kind).toBe(backend.kind);
    const bytes = text(3 * 1024 * 1024 + 123, "kept");
    const { row } = await attachment(bytes);
    const { createHash } = await import("node:crypto");
    expect(row.blob).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(Number(row.size)).toBe(bytes.byteLength);
    const columns = rowsOf<{ column_name: string }>(
      await db().execute(
        sql`SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'files'`,
      ),
    ).map((c) => c.column_name);
    expect(columns).toContain("blob");
    expect(columns).not.toContain("bytes");
    expect(await blobsKept()).toContain(row.blob);
    if (backend.kind === "fs") {
      const file = path.join(service.services.env.dataDir, "files", row.blob.slice(0, 2), row.blob);
      expect(existsSync(file)).toBe(true);
    }
    if (backend.kind === "postgres") {
      const chunks = rowsOf<{ seq: number; n: number }>(
        await db().execute(
          sql`SELECT seq, octet_length(bytes) AS n FROM file_chunks WHERE address = ${row.blob} ORDER BY seq`,
        ),
      );
      expect(chunks.map((c) => Number(c.seq))).toEqual([0, 1, 2, 3]);
      expect(Math.max(...chunks.map((c) => Number(c.n)))).toBeLessThanOrEqual(CHUNK_BYTES);
    }
  });

  it("answers the bytes on the download path: whole, a range (across a chunk's end), a suffix, 416 past the end", async () => {
    const bytes = text(2 * 1024 * 1024 + 77, "ranges");
    const { ticketId } = await attachment(bytes, "node log 日志.txt");
    const get = (headers: Record<string, string> = {}) =>
      downloadVueapi(service, "support-attachment", { ticketId }, token, headers);
    const whole = await get();
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(whole.headers.get("Content-Length")).toBe(String(bytes.byteLength));
    expect(whole.headers.get("Accept-Ranges")).toBe("bytes");
    expect(whole.headers.get("Content-Disposition")).toBe(
      `attachment; filename="node log __.txt"; filename*=UTF-8''${encodeURIComponent("node log 日志.txt")}`,
    );
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);

    const across = await get({ Range: `bytes=${CHUNK_BYTES - 10}-${CHUNK_BYTES + 9}` });
    expect(across.status).toBe(206);
    expect(across.headers.get("Content-Range")).toBe(
      `bytes ${CHUNK_BYTES - 10}-${CHUNK_BYTES + 9}/${bytes.byteLength}`,
    );
    expect(Buffer.from(await across.arrayBuffer()).equals(bytes.subarray(CHUNK_BYTES - 10, CHUNK_BYTES + 10))).toBe(
      true,
    );
    const open = await get({ Range: `bytes=${2 * 1024 * 1024}-` });
    expect(open.status).toBe(206);
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes.subarray(2 * 1024 * 1024))).toBe(true);
    const suffix = await get({ Range: "bytes=-50" });
    expect(suffix.status).toBe(206);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(bytes.subarray(bytes.byteLength - 50))).toBe(true);
    const past = await get({ Range: `bytes=${bytes.byteLength}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get("Content-Range")).toBe(`bytes */${bytes.byteLength}`);
    // If-Range with another ETag: the whole file again; with its own: the range.
    const stale = await get({ Range: "bytes=0-9", "If-Range": '"file-0"' });
    expect(stale.status).toBe(200);
    await stale.body?.cancel();
    const fresh = await get({ Range: "bytes=0-9", "If-Range": whole.headers.get("ETag")! });
    expect(fresh.status).toBe(206);
    expect(Buffer.from(await fresh.arrayBuffer()).equals(bytes.subarray(0, 10))).toBe(true);
    // Another user's ticket: the envelope's "not found", no bytes.
    const refused = await downloadVueapi(service, "support-attachment", { ticketId }, other);
    expect(refused.headers.get("Content-Type")).toMatch(/application\/json/);
    expect((await refused.json()).message).toBe(Msg.NOT_FOUND);
  });

  it("leaves nothing in the store of a refused upload", async () => {
    const before = await blobsKept();
    // Text under a .png name: refused once its first 64 KB are sniffed, after some bytes reached the store's writer.
    const refused = await uploadVueapi(service, "support", "shot.png", text(512 * 1024, "refused"), token);
    expect(refused.message).toBe(Msg.FILE_TYPE_WRONG);
    expect((await blobsKept()).sort()).toEqual(before.sort());
    if (backend.kind === "fs") {
      const tmp = path.join(service.services.env.dataDir, "files", "tmp");
      expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
    }
  });

  it("sweeps the blobs no row names, once they are older than the grace, and keeps the named ones", async () => {
    const named = await attachment(text(300 * 1024, "named"));
    const gone = await store().put(db(), { name: "gone.txt", mime: "text/plain", bytes: text(200 * 1024, "gone") });
    const [goneRow] = rowsOf<{ blob: string }>(await db().execute(sql`SELECT blob FROM files WHERE id = ${gone.id}`));
    // A copy names the same blob: removing the original keeps it.
    const copy = await store().copy(db(), named.row.id, new Date());
    await store().remove(db(), gone.id);
    expect(await blobsKept()).toContain(goneRow!.blob);
    // Young blobs stay (a row that names one may be about to commit).
    expect(await store().sweepBlobs(new Date(Date.now() - 60 * 60 * 1000))).toBe(0);
    expect(await store().sweepBlobs(new Date(Date.now() + 60 * 60 * 1000))).toBeGreaterThanOrEqual(1);
    const kept = await blobsKept();
    expect(kept).not.toContain(goneRow!.blob);
    expect(kept).toContain(named.row.blob);
    const again = await store().read(db(), copy!.id);
    expect(again!.bytes.equals(text(300 * 1024, "named"))).toBe(true);
  });

  it("moves the bytes of rows written before the blob store, then drops the column", async () => {
    // As an old release left them: the bytes in the row, no blob.
    await db().execute(sql`ALTER TABLE files ADD COLUMN bytes bytea`);
    const old = [text(1536 * 1024, "old one"), text(10, "old two"), Buffer.alloc(0)];
    const ids: number[] = [];
    for (const bytes of old) {
      const [row] = rowsOf<{ id: number }>(
        await db().execute(
          sql`INSERT INTO files (name, mime, size, bytes) VALUES ('old.txt', 'text/plain', 0, ${bytes}) RETURNING id`,
        ),
      );
      ids.push(Number(row!.id));
    }
    expect(await migrateFileBytes(db(), store().blobs)).toBe(old.length);
    for (const [i, id] of ids.entries()) {
      const file = await store().read(db(), id);
      expect(file!.size).toBe(old[i]!.byteLength);
      expect(file!.bytes.equals(old[i]!)).toBe(true);
    }
    const columns = rowsOf(
      await db().execute(
        sql`SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'files' AND column_name = 'bytes'`,
      ),
    );
    expect(columns).toEqual([]);
    // Nothing left to do at the next start.
    expect(await migrateFileBytes(db(), store().blobs)).toBe(0);
  });
});
