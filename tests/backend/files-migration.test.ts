import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  callAt,
  loginAt,
  registerAndActivate,
  spawnServer,
  startedDataDir,
  startServer,
  stopServer,
  type Server,
} from "./server-process.ts";

/**
 * Files off the database (issue 29 item 1, docs/decisions/053), on servers of the built app this file starts
 * on the embedded default: the start-time migration of old rows' bytes survives kill -9 and resumes, and a
 * 60 MB upload and its download go through without holding the file in the server's memory.
 */
const dirs: string[] = [];
let server: Server | undefined;
afterAll(async () => {
  await stopServer(server, "SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const newDataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "bsn-files-"));
  dirs.push(dir);
  return dir;
};

/** The bytes of old row `i`: 1 MB each, all different. */
const oldBytes = (i: number) => {
  const out = Buffer.alloc(1024 * 1024, i % 251);
  out.write(`old file ${i}`, 0);
  return out;
};
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** Blobs under DATA_DIR/files. */
const blobCount = (dataDir: string) => {
  const root = path.join(dataDir, "files");
  if (!existsSync(root)) return 0;
  return readdirSync(root)
    .filter((d) => /^[0-9a-f]{2}$/.test(d))
    .reduce((n, d) => n + readdirSync(path.join(root, d)).length, 0);
};

async function withDatabase<T>(dataDir: string, work: (db: import("@electric-sql/pglite").PGlite) => Promise<T>) {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create(path.join(dataDir, "pgdata"));
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

describe("the migration of old rows' bytes", () => {
  it("moves them one row at a time, resumes after kill -9, then drops the column", async () => {
    // A database as the release before left it: the bytes in the rows.
    const dataDir = await startedDataDir(newDataDir());
    // Enough rows that the kill (after the third) lands before the last, few enough that writing them through
    // the embedded database and moving them stays short.
    const ROWS = 12;
    await withDatabase(dataDir, async (db) => {
      await db.query("ALTER TABLE files ADD COLUMN bytes bytea");
      for (let i = 0; i < ROWS; i++)
        await db.query("INSERT INTO files (name, mime, size, bytes) VALUES ($1, 'text/plain', 0, $2)", [
          `old-${i}.txt`,
          oldBytes(i),
        ]);
    });
    const before = blobCount(dataDir);

    // Killed while it moves them.
    const spawned = await spawnServer(dataDir);
    const deadline = Date.now() + 120_000;
    while (blobCount(dataDir) < before + 3) {
      if (Date.now() > deadline || spawned.child.exitCode !== null) throw new Error(spawned.stderr());
      await new Promise((r) => setTimeout(r, 10));
    }
    spawned.child.kill("SIGKILL");
    await spawned.exited;
    const left = await withDatabase(dataDir, async (db) => {
      const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM files WHERE bytes IS NOT NULL");
      return rows[0]!.n;
    });
    expect(left, "the kill came before the last row").toBeGreaterThan(0);
    expect(left).toBeLessThan(ROWS);

    // The next start finishes the work.
    server = await startServer(dataDir);
    await stopServer(server);
    await withDatabase(dataDir, async (db) => {
      const { rows: columns } = await db.query(
        "SELECT 1 FROM information_schema.columns WHERE table_name = 'files' AND column_name = 'bytes'",
      );
      expect(columns).toEqual([]);
      const { rows } = await db.query<{ name: string; blob: string; size: number }>(
        "SELECT name, blob, size FROM files WHERE name LIKE 'old-%' ORDER BY id",
      );
      expect(rows).toHaveLength(ROWS);
      for (const [i, row] of rows.entries()) {
        const bytes = oldBytes(i);
        expect(row.name).toBe(`old-${i}.txt`);
        expect(row.blob).toBe(sha(bytes));
        expect(row.size).toBe(bytes.byteLength);
        expect(readFileSync(path.join(dataDir, "files", row.blob.slice(0, 2), row.blob)).equals(bytes)).toBe(true);
      }
    });
  }, 300_000);
});

/** The server's resident memory (kB), from /proc. */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

describe("a 60 MB upload and download", () => {
  it("adds under 100 MB to the server's memory", async () => {
    server = await startServer(await startedDataDir(newDataDir()));
    const userName = await registerAndActivate(server);
    const token = (await loginAt(server, userName)).data.token;
    const MB = 1024 * 1024;
    const size = 60 * MB - 1024;
    const piece = Buffer.alloc(MB, "0123456789abcdef\n");
    const hash = createHash("sha256");
    for (let sent = 0; sent < size; sent += MB) hash.update(piece.subarray(0, Math.min(MB, size - sent)));
    const expected = hash.digest("hex");
    const body = () =>
      new ReadableStream<Uint8Array>({
        start() {},
        pull: (() => {
          let sent = 0;
          return (controller: ReadableStreamDefaultController<Uint8Array>) => {
            if (sent >= size) return controller.close();
            const n = Math.min(MB, size - sent);
            sent += n;
            controller.enqueue(piece.subarray(0, n));
          };
        })(),
      });
    const upload = async () => {
      const res = await fetch(`${server!.baseUrl}/vueapi/upload/support`, {
        method: "POST",
        headers: {
          "Content-Type": "text/plain",
          "X-File-Name": "big.txt",
          Authorization: `Bearer ${token}`,
          "Content-Length": String(size),
        },
        body: body(),
        duplex: "half",
      } as RequestInit);
      return (await res.json()) as { code: number; data: { uploadId: string; size: number } };
    };

    // Warmed up with a first upload, then measured.
    expect((await upload()).code).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    const baseline = rssOf(server.pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server!.pid))), 20);
    try {
      const uploaded = await upload();
      expect(uploaded.code).toBe(0);
      expect(uploaded.data.size).toBe(size);
      const ticket = await callAt(
        server,
        "/sys/technicalSupport/insertTech",
        { question: "A big log", contactEmail: "a@example.com", file: { uploadId: uploaded.data.uploadId } },
        token,
      );
      expect(ticket.code).toBe(0);
      const res = await fetch(`${server.baseUrl}/vueapi/download/support-attachment`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ ticketId: ticket.data.ticketId }),
      });
      expect(res.status).toBe(200);
      const got = createHash("sha256");
      let received = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        got.update(chunk);
        received += chunk.byteLength;
      }
      expect(received).toBe(size);
      expect(got.digest("hex")).toBe(expected);
    } finally {
      clearInterval(sampler);
    }
    const added = peak - baseline;
    console.log(`60 MB upload + download: the server's memory rose by ${(added / MB).toFixed(1)} MB`);
    expect(added).toBeLessThan(100 * MB);
    await stopServer(server);
  }, 300_000);
});
