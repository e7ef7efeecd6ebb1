import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unixfs } from "@helia/unixfs";
import { MemoryBlockstore } from "blockstore-core";
import { FsBlockstore } from "blockstore-fs";
import { CID } from "multiformats/cid";
import * as raw from "multiformats/codecs/raw";
import { sha256 } from "multiformats/hashes/sha2";
import { afterAll, describe, expect, it } from "vitest";
import * as dagPb from "@ipld/dag-pb";
import { importer } from "ipfs-unixfs-importer";
import { identity } from "multiformats/hashes/identity";
import { createHash } from "node:crypto";
import { EmbeddedIpfs, importOptions } from "#backend/domains/ipfs/engine/embedded.ts";
import { blobAddressOf, UnsupportedHashError } from "#backend/domains/ipfs/engine/shared-state.ts";
import { NotPinnedError } from "#backend/domains/ipfs/engine/types.ts";

// docs/decisions/039: the embedded IPFS engine on disk (counted pins, shared blocks, failed uploads, the sweep at
// open). The engine reached from another process over the engine link: tests/backend/ipfs-lease.test.ts.

const MiB = 1024 * 1024;
const dirs: string[] = [];
const tmp = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `ipfs-${name}-`));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function* chunks(bytes: Uint8Array, size = 64 * 1024) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
async function all(source: AsyncIterable<Uint8Array>) {
  const parts: Uint8Array[] = [];
  for await (const p of source) parts.push(p);
  return Buffer.concat(parts);
}
const helia = () => unixfs({ blockstore: new MemoryBlockstore() } as any);

describe("the embedded engine", () => {
  it("gives Helia's CIDs and reads back whole files and slices", async () => {
    const engine = new EmbeddedIpfs(tmp("cid"));
    await engine.open();
    for (const size of [0, 1, MiB, MiB + 1, 3 * MiB + 12345]) {
      const bytes = randomBytes(size);
      const added = await engine.add(chunks(bytes));
      expect(added, `size ${size}`).toEqual({ cid: (await helia().addBytes(bytes)).toString(), size });
      expect((await all(engine.cat(added.cid))).equals(bytes)).toBe(true);
      if (size > 10)
        expect(
          (await all(engine.cat(added.cid, { offset: 5, length: size - 10 }))).equals(bytes.subarray(5, size - 5)),
        ).toBe(true);
      expect(await engine.stat(added.cid)).toMatchObject({ size });
    }
    await engine.close();
  });

  it("counts pins per root and removes blocks only when no pinned root holds them", async () => {
    const engine = new EmbeddedIpfs(tmp("pins"));
    await engine.open();
    const a = randomBytes(4 * MiB);
    const b = Buffer.concat([a.subarray(0, 2 * MiB), randomBytes(MiB)]);
    const first = await engine.add(chunks(a));
    expect(await engine.repoStats()).toMatchObject({ blocks: 5 });
    const again = await engine.add(chunks(a));
    expect(again.cid).toBe(first.cid);
    expect(await engine.pins(first.cid)).toBe(2);
    const other = await engine.add(chunks(b));
    expect((await engine.repoStats()).blocks).toBe(5 + 2);
    expect(await engine.unpin(first.cid)).toEqual({ removedBlocks: 0 });
    expect(await engine.unpin(first.cid)).toEqual({ removedBlocks: 3 });
    await expect(engine.unpin(first.cid)).rejects.toBeInstanceOf(NotPinnedError);
    await expect(all(engine.cat(first.cid))).rejects.toBeInstanceOf(NotPinnedError);
    expect((await all(engine.cat(other.cid))).equals(b)).toBe(true);
    const left = await engine.repoStats();
    expect(left.blocks).toBe(4);
    expect(left.bytes).toBeGreaterThan(3 * MiB);
    expect(await engine.unpin(other.cid)).toEqual({ removedBlocks: 4 });
    expect(await engine.repoStats()).toEqual({ blocks: 0, bytes: 0 });
    await engine.close();
  });

  it("keeps nothing of an upload cut short, and nothing a pin still holds is lost with it", async () => {
    const engine = new EmbeddedIpfs(tmp("cut"));
    await engine.open();
    const kept = randomBytes(3 * MiB);
    await engine.add(chunks(kept));
    const before = await engine.repoStats();
    async function* broken() {
      yield kept.subarray(0, 2 * MiB); // two blocks the pinned file already has
      yield randomBytes(2 * MiB);
      throw new Error("the client went away");
    }
    await expect(engine.add(broken())).rejects.toThrow("the client went away");
    expect(await engine.repoStats()).toEqual(before);
    expect((await all(engine.cat((await helia().addBytes(kept)).toString()))).equals(kept)).toBe(true);
    await engine.close();
  });

  it("finds its pins after a restart and sweeps blocks no pin references", async () => {
    const dir = tmp("restart");
    const engine = new EmbeddedIpfs(dir);
    await engine.open();
    const bytes = randomBytes(2 * MiB + 7);
    const added = await engine.add(chunks(bytes));
    await engine.close();
    // A block written without a pin (an upload cut short by a crash).
    const store = new FsBlockstore(path.join(dir, "blocks"));
    await store.open();
    const stray = randomBytes(100);
    await store.put(CID.createV1(raw.code, await sha256.digest(stray)), stray);
    const reopened = new EmbeddedIpfs(dir);
    expect(await reopened.open()).toEqual({ roots: 1, blocks: 4, removed: 1 });
    expect((await all(reopened.cat(added.cid))).equals(bytes)).toBe(true);
    expect(await reopened.pins(added.cid)).toBe(1);
    await reopened.close();
  });
});

describe("a block's address in the shared blob store (docs/decisions/096)", () => {
  it("is the SHA-256 of its bytes in hex, for raw leaves and dag-pb nodes alike", async () => {
    // Every block the importer writes, with its CID as written (the store itself keeps multihashes only).
    const written: { cid: CID; bytes: Uint8Array }[] = [];
    const blockstore = new MemoryBlockstore();
    const recording = {
      get: blockstore.get.bind(blockstore),
      has: blockstore.has.bind(blockstore),
      put: async (cid: CID, bytes: Uint8Array) => {
        written.push({ cid, bytes });
        return blockstore.put(cid, bytes);
      },
    };
    for await (const _ of importer(
      [{ content: chunks(randomBytes(3 * MiB + 12345)) }],
      recording as any,
      importOptions(),
    ));
    const codecs = new Set<number>();
    for (const { cid, bytes } of written) {
      codecs.add(cid.code);
      expect(blobAddressOf(cid)).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
    expect([...codecs].sort()).toEqual([raw.code, dagPb.code].sort());
  });

  it("is refused for any other hash", async () => {
    const bytes = randomBytes(10);
    expect(() => blobAddressOf(CID.createV1(raw.code, identity.digest(bytes)))).toThrow(UnsupportedHashError);
  });
});
