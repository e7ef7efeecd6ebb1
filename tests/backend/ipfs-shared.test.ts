import { createHash, randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { CID } from "multiformats/cid";
import * as raw from "multiformats/codecs/raw";
import { identity } from "multiformats/hashes/identity";
import { sha256, sha512 } from "multiformats/hashes/sha2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ipfs from "#backend/domains/ipfs/index.ts";
import { LeasedIpfs } from "#backend/domains/ipfs/engine/leased.ts";
import { EmbeddedIpfs } from "#backend/domains/ipfs/engine/embedded.ts";
import { blobAddressOf, sharedState, UnsupportedHashError } from "#backend/domains/ipfs/engine/shared-state.ts";
import { ipfsBlocks, ipfsPins } from "#backend/domains/ipfs/tables.ts";
import { openVueapi, ownDatabase, type Vueapi } from "./in-process.ts";
import { startS3Server } from "../support/s3-server.ts";

/**
 * Issue 32 item 3, its IPFS part (docs/decisions/096): on a shared database the embedded IPFS engine keeps its
 * blocks in the file store (PostgreSQL's chunks, or a FILES_URL bucket) and its pins in PostgreSQL, so that a
 * process on another host taking the engine over reads them all. Shown on each store: files added through one
 * service, which is then closed; a second service on the same database with another DATA_DIR (another host)
 * reads them back with the same CIDs, bytes, stats and pins; an unpin there removes the blocks (their bytes go
 * with the blob sweep); a block of an upload cut short before its pin goes at the next open; a block of another
 * hash is refused; and a portal that kept DATA_DIR/ipfs on disk copies it in once, idempotently.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const reason = process.env.IPFS_API_URL
  ? "skipped: IPFS_API_URL is set (the engine is that node; its state is the node's)"
  : "skipped: DATABASE_URL is unset (a takeover needs a database another host reaches; on the embedded database the engine keeps DATA_DIR/ipfs)";
const RUN = !!DATABASE_URL && !process.env.IPFS_API_URL;

const MiB = 1024 * 1024;
const dirs: string[] = [];
const tmp = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `bsn-ipfs-shared-${name}-`));
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
async function listed(service: Vueapi) {
  const out = new Set<string>();
  for await (const address of service.services.files.blobs.list()) out.add(address);
  return out;
}
const addresses = async (service: Vueapi) =>
  new Set((await service.services.db.select({ address: ipfsBlocks.address }).from(ipfsBlocks)).map((r) => r.address));

let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
afterAll(async () => s3?.stop());

const stores = [
  { name: "PostgreSQL's file_chunks", vars: async () => ({}) },
  {
    name: "a FILES_URL bucket (s3rver)",
    vars: async () => {
      s3 ??= await startS3Server("bsn-ipfs", "portal");
      return { FILES_URL: s3.filesUrl };
    },
  },
];

describe.skipIf(!RUN).each(stores)(
  `the embedded IPFS engine's state on $name${RUN ? "" : ` (${reason})`}`,
  ({ vars }) => {
    let env: Record<string, string | undefined>;
    let first: Vueapi;
    let second: Vueapi;
    const files = {
      small: randomBytes(1000),
      exact: randomBytes(MiB),
      large: randomBytes(3 * MiB + 12345),
      // Shares its first 2 MiB (two raw leaves) with `large`.
      sharing: Buffer.alloc(0),
    };
    files.sharing = Buffer.concat([files.large.subarray(0, 2 * MiB), randomBytes(MiB)]);
    const cids: Record<string, string> = {};
    const stats: Record<string, unknown> = {};
    let repo: { blocks: number; bytes: number };

    beforeAll(async () => {
      env = {
        DATABASE_URL: await ownDatabase(DATABASE_URL),
        PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
        DEMO: "0",
        JOBS_INTERVAL_MS: "0",
        ...(await vars()),
      };
      first = await openVueapi("ipfs-shared-a", env);
    });
    afterAll(async () => {
      await second?.close();
    });

    it("a second service on the same database, with another DATA_DIR, reads every pinned file", async () => {
      const engine = ipfs.api.engine(first.services) as EmbeddedIpfs;
      expect(engine.stateKind).toBe("shared");
      for (const [name, bytes] of Object.entries(files)) {
        const added = await engine.add(chunks(bytes));
        expect(added.size).toBe(bytes.length);
        cids[name] = added.cid;
      }
      // The same bytes once more: one more pin of the same root.
      expect((await engine.add(chunks(files.large))).cid).toBe(cids.large);
      for (const name of Object.keys(files)) stats[name] = await engine.stat(cids[name]);
      repo = await engine.repoStats();
      // 1 + 1 + (4 leaves + 1 node) + (1 new leaf + 1 node): the shared leaves are kept once.
      expect(repo.blocks).toBe(9);
      // Nothing under this DATA_DIR: the state is in the shared store.
      expect(existsSync(path.join(first.services.env.dataDir, "ipfs"))).toBe(false);
      const firstDir = first.services.env.dataDir;
      await first.close();

      second = await openVueapi("ipfs-shared-b", env);
      expect(second.services.env.dataDir).not.toBe(firstDir);
      const other = ipfs.api.engine(second.services);
      for (const [name, bytes] of Object.entries(files)) {
        expect(await other.stat(cids[name]), name).toEqual(stats[name]);
        expect((await all(other.cat(cids[name]))).equals(bytes), name).toBe(true);
        expect((await all(other.cat(cids[name], { offset: 7, length: 500 }))).equals(bytes.subarray(7, 507))).toBe(
          true,
        );
      }
      expect(await other.pins(cids.large)).toBe(2);
      expect(await other.pins(cids.small)).toBe(1);
      expect(await other.repoStats()).toEqual(repo);
      expect((await second.health()).ipfs).toMatchObject({ engine: "embedded", state: "shared", ok: true, ...repo });
      // Each block is a blob under the SHA-256 of its bytes (raw leaves and dag-pb nodes alike).
      const kept = await listed(second);
      const rows = await second.services.db.select().from(ipfsBlocks);
      expect(rows).toHaveLength(repo.blocks);
      for (const row of rows) {
        expect(kept.has(row.address)).toBe(true);
        const bytes = await all(second.services.files.blobs.read(second.services.db, row.address, row.size));
        expect(createHash("sha256").update(bytes).digest("hex")).toBe(row.address);
      }
    });

    it("an unpin in the second service removes the blocks no other pinned root holds; their bytes go with the sweep", async () => {
      const other = ipfs.api.engine(second.services);
      const before = await addresses(second);
      expect(await other.unpin(cids.large)).toEqual({ removedBlocks: 0 });
      // 2 of its leaves are `sharing`'s too: 2 leaves and its node go.
      expect(await other.unpin(cids.large)).toEqual({ removedBlocks: 3 });
      const after = await addresses(second);
      const gone = [...before].filter((a) => !after.has(a));
      expect(gone).toHaveLength(3);
      expect(await other.repoStats()).toMatchObject({ blocks: repo.blocks - 3 });
      expect(await second.services.db.select().from(ipfsPins).where(eq(ipfsPins.cid, cids.large))).toEqual([]);
      // The blob sweep (hourly) leaves the named blocks and removes the others.
      await second.services.files.sweepBlobs(new Date(Date.now() + 2 * 60 * 60 * 1000));
      const kept = await listed(second);
      for (const address of gone) expect(kept.has(address)).toBe(false);
      for (const address of after) expect(kept.has(address)).toBe(true);
      expect((await all(other.cat(cids.sharing))).equals(files.sharing)).toBe(true);
      await expect(all(other.cat(cids.large))).rejects.toThrow(/not pinned/);
    });

    it("a block written by an upload cut short before its pin goes at the next open", async () => {
      const services = second.services;
      // What a process killed during an upload leaves: a block named in the shared store, which no pin holds.
      const orphan = randomBytes(2000);
      const cid = CID.createV1(raw.code, await sha256.digest(orphan));
      await sharedState(services.db, services.files.blobs).blockstore.put(cid, orphan);
      expect((await addresses(second)).has(blobAddressOf(cid))).toBe(true);
      // Within the hour it may be another process's upload under way: kept at open.
      const soon = ipfs.api.embeddedEngine(services, path.join(tmp("orphan-soon"), "ipfs"));
      expect(await soon.open()).toMatchObject({ removed: 0 });
      await soon.close();
      expect((await addresses(second)).has(blobAddressOf(cid))).toBe(true);
      // Older than that, it is what a killed process left.
      await services.db.execute(
        sql`UPDATE ipfs_blocks SET created_at = now() - interval '2 hours' WHERE address = ${blobAddressOf(cid)}`,
      );
      const next = ipfs.api.embeddedEngine(services, path.join(tmp("orphan"), "ipfs"));
      expect(await next.open()).toMatchObject({ removed: 1 });
      expect((await addresses(second)).has(blobAddressOf(cid))).toBe(false);
      expect(await next.stat(cids.sharing)).toEqual(stats.sharing);
      await next.close();
    });

    it("refuses a block of another hash, or whose bytes do not hash to its CID", async () => {
      const { blockstore } = sharedState(second.services.db, second.services.files.blobs);
      const bytes = randomBytes(100);
      await expect(blockstore.put(CID.createV1(raw.code, await sha512.digest(bytes)), bytes)).rejects.toBeInstanceOf(
        UnsupportedHashError,
      );
      await expect(blockstore.put(CID.createV1(raw.code, identity.digest(bytes)), bytes)).rejects.toBeInstanceOf(
        UnsupportedHashError,
      );
      const wrong = CID.createV1(raw.code, await sha256.digest(randomBytes(100)));
      await expect(blockstore.put(wrong, bytes)).rejects.toThrow(/do not hash to its CID/);
      expect((await addresses(second)).has(blobAddressOf(wrong))).toBe(false);
    });

    it("copies a portal's DATA_DIR/ipfs into the shared store once, and again harmlessly after a copy cut short", async () => {
      const dir = path.join(tmp("disk"), "ipfs");
      const disk = new EmbeddedIpfs(dir);
      await disk.open();
      const a = randomBytes(2 * MiB + 10);
      const b = randomBytes(500);
      const addedA = await disk.add(chunks(a));
      await disk.add(chunks(a));
      const addedB = await disk.add(chunks(b));
      const statA = await disk.stat(addedA.cid);
      const diskBlocks = (await disk.repoStats()).blocks;
      await disk.close();
      // A copy of the folder as it was: the state a copy killed before its last step (the rename) leaves.
      const cut = `${dir}-cut`;
      cpSync(dir, cut, { recursive: true });

      // The portal of that DATA_DIR started on the shared database: its engine copies the folder in when it opens,
      // which only the holder of the lease does (docs/decisions/098): the other service hands it over first.
      await second.close();
      const upgraded = await openVueapi("ipfs-shared-disk", { ...env, DATA_DIR: path.dirname(dir) });
      second = upgraded;
      {
        const copyOnce = (ipfs.api.engine(upgraded.services) as LeasedIpfs).local!;
        expect(copyOnce.copied).toMatchObject({ blocks: diskBlocks, pins: 2, skipped: 0 });
        expect(existsSync(dir)).toBe(false);
        expect(existsSync(copyOnce.copied!.movedTo)).toBe(true);
        expect(await copyOnce.stat(addedA.cid)).toEqual(statA);
        expect(await copyOnce.pins(addedA.cid)).toBe(2);
        expect((await all(copyOnce.cat(addedA.cid))).equals(a)).toBe(true);
        expect((await all(copyOnce.cat(addedB.cid))).equals(b)).toBe(true);
      }
      const services = second.services;

      cpSync(cut, dir, { recursive: true });
      const again = ipfs.api.embeddedEngine(services, dir);
      await again.open();
      expect(again.copied).toMatchObject({ blocks: 0, pins: 2 });
      expect(await again.pins(addedA.cid)).toBe(2);
      expect(await again.pins(addedB.cid)).toBe(1);
      expect((await all(again.cat(addedA.cid))).equals(a)).toBe(true);
      await again.close();

      // Nothing on disk any more: the next start copies nothing.
      const later = ipfs.api.embeddedEngine(services, dir);
      await later.open();
      expect(later.copied).toBeNull();
      expect(await later.stat(addedA.cid)).toEqual(statA);
      expect(readdirSync(path.dirname(dir)).filter((n) => n.startsWith("ipfs.copied-"))).toHaveLength(2);
      await later.close();
    });
  },
);
