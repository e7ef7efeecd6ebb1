import { existsSync } from "node:fs";
import { rename } from "node:fs/promises";
import { sql } from "drizzle-orm";
import { base32upper } from "multiformats/bases/base32";
import { CID } from "multiformats/cid";
import * as raw from "multiformats/codecs/raw";
import { decode as decodeDigest } from "multiformats/hashes/digest";
import { sha256 } from "multiformats/hashes/sha2";
import path from "node:path";
import type { Db } from "#backend/db/client.ts";
import { ipfsPins } from "../tables.ts";
import { blockBytes, diskState } from "./state.ts";
import type { sharedState } from "./shared-state.ts";

export type Copied = { blocks: number; pins: number; skipped: number; movedTo: string };

/**
 * A portal that kept its IPFS engine on disk (DATA_DIR/ipfs) and now runs on a shared store (docs/decisions/096)
 * copies that state there once, before the engine opens: every block not kept there yet, then every pin. A copy
 * cut short is simply run again at the next start: blocks already kept are skipped, and a pin takes the larger of
 * the two counts (the same count again when it was copied already). Only then is DATA_DIR/ipfs renamed aside
 * (`ipfs.copied-<time>`, kept for the operator to delete), so the copy never runs twice. Blocks of another hash
 * than sha2-256 (which this engine never wrote) cannot be kept there: they are counted and left in the folder.
 * Answers null when there is nothing on disk.
 */
export async function copyFromDisk(
  dir: string,
  shared: ReturnType<typeof sharedState>,
  db: Db,
  now = new Date(),
): Promise<Copied | null> {
  if (!existsSync(path.join(dir, "blocks")) && !existsSync(path.join(dir, "pins"))) return null;
  const disk = diskState(dir);
  await disk.open();
  let blocks = 0;
  let pins = 0;
  let skipped = 0;
  try {
    for await (const _ of shared.blocks());
    const kept = shared.blockstore.sizes;
    for await (const { key } of disk.blocks()) {
      const multihash = decodeDigest(base32upper.decode(key));
      if (multihash.code !== sha256.code) {
        skipped++;
        continue;
      }
      const cid = CID.createV1(raw.code, multihash);
      if (kept.has(shared.keyOf(cid))) continue;
      await shared.blockstore.put(cid, await blockBytes(disk.blockstore.get(cid)));
      blocks++;
    }
    for await (const pin of disk.pins()) {
      if (!(pin.count > 0)) continue;
      let cid: string;
      try {
        cid = CID.parse(pin.cid).toV1().toString();
      } catch {
        console.warn(`ipfs: the pin file ${pin.cid} names no CID; not copied`);
        continue;
      }
      await db
        .insert(ipfsPins)
        .values({ cid, count: pin.count })
        .onConflictDoUpdate({
          target: ipfsPins.cid,
          set: { count: sql`GREATEST(${ipfsPins.count}, excluded.count)`, updatedAt: sql`now()` },
        });
      pins++;
    }
  } finally {
    await disk.close();
  }
  if (skipped) console.warn(`ipfs: ${skipped} block(s) of another hash than sha2-256 stay in ${dir}`);
  const movedTo = `${dir}.copied-${now.toISOString().replace(/[:.]/g, "-")}`;
  await rename(dir, movedTo);
  return { blocks, pins, skipped, movedTo };
}
