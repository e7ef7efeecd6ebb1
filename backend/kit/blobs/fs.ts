import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, readdir, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import type { BlobStore, ByteRange, Written } from "./index.ts";
import { isAddress } from "./index.ts";

/**
 * Blobs as files under DATA_DIR/files (docs/decisions/053), the embedded database's store: `<aa>/<address>`
 * (the first two hex digits as a folder). A blob is written to `tmp/<random>` while its hash is computed,
 * fsync'd, renamed to its address and the folder fsync'd: it is on disk before the row that names it commits.
 * The same content written again replaces the file with identical bytes (and a fresh mtime, which the sweep
 * reads as "young").
 */
export function fsBlobStore(root: string): BlobStore {
  const tmp = path.join(root, "tmp");
  const fileOf = (address: string) => path.join(root, address.slice(0, 2), address);

  async function syncDir(dir: string) {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  return {
    kind: "fs",

    async write(bytes) {
      await mkdir(tmp, { recursive: true });
      const temporary = path.join(tmp, randomBytes(16).toString("hex"));
      const hash = createHash("sha256");
      let size = 0;
      const handle = await open(temporary, "wx", 0o600);
      try {
        try {
          for await (const chunk of bytes) {
            hash.update(chunk);
            size += chunk.byteLength;
            let done = 0;
            while (done < chunk.byteLength) {
              const { bytesWritten } = await handle.write(chunk, done, chunk.byteLength - done);
              done += bytesWritten;
            }
          }
          await handle.sync();
        } finally {
          await handle.close();
        }
        const address = hash.digest("hex");
        const target = fileOf(address);
        await mkdir(path.dirname(target), { recursive: true });
        await rename(temporary, target);
        await syncDir(path.dirname(target));
        return { address, size, pending: null } satisfies Written;
      } catch (error) {
        await unlink(temporary).catch(() => undefined);
        throw error;
      }
    },

    async settle() {
      // Durable since `write`.
    },

    async *read(_q, address, _size, range?: ByteRange) {
      if (!isAddress(address)) throw new Error(`not a content address: ${address}`);
      yield* createReadStream(
        fileOf(address),
        range ? { start: range.start, end: range.end, highWaterMark: 256 * 1024 } : { highWaterMark: 256 * 1024 },
      ) as AsyncIterable<Buffer>;
    },

    async sweep(before, named) {
      let removed = 0;
      const old = async (file: string) => {
        try {
          return (await stat(file)).mtime < before;
        } catch {
          return false;
        }
      };
      // What a write killed before its rename left behind.
      for (const name of await readdir(tmp).catch(() => [] as string[]))
        if (await old(path.join(tmp, name))) await unlink(path.join(tmp, name)).catch(() => undefined);
      for (const address of await listAddresses(root)) {
        const file = fileOf(address);
        if (!(await old(file)) || (await named(address))) continue;
        // Put aside, then looked at again: a write of the same bytes since (a fresh mtime) or a row that
        // names it by now puts it back.
        const aside = path.join(tmp, `sweep-${address}`);
        await mkdir(tmp, { recursive: true });
        await rename(file, aside).catch(() => undefined);
        if (!(await old(aside)) || (await named(address))) {
          await rename(aside, file).catch(() => undefined);
          continue;
        }
        await unlink(aside).catch(() => undefined);
        removed++;
      }
      return removed;
    },

    async *list() {
      yield* await listAddresses(root);
    },

    async close() {},
  };
}

async function listAddresses(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const dir of await readdir(root).catch(() => [] as string[])) {
    if (!/^[0-9a-f]{2}$/.test(dir)) continue;
    for (const name of await readdir(path.join(root, dir)).catch(() => [] as string[]))
      if (isAddress(name) && name.startsWith(dir)) out.push(name);
  }
  return out;
}
