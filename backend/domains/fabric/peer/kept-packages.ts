import { existsSync } from "node:fs";
import { and, eq, isNull } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import { files } from "#backend/db/tables.ts";
import type { FileStore } from "#backend/kit/storage.ts";
import { fabricChaincodes } from "../tables.ts";
import { checkPackage, digestOf, unpack } from "./package.ts";

/**
 * The installed chaincode packages kept in the file store (docs/decisions/099), so that a process taking the peer
 * over, maybe on another host, can unpack them again.
 */
export type Kept = {
  db: Db;
  files?: FileStore;
  /** With several processes on one database: throws unless this one still holds the peer's lease. */
  fence?: (tx: Tx) => Promise<void>;
  now: () => Date;
};

type Version = { name: string; version: string; digest: string; packageFileId: number | null };

/**
 * A version installed before its zip was kept (migration 0055) has no `package_file_id`, so no other process could
 * unpack it. Its zip is looked for in the file store by its digest, which is the content address of the upload it
 * came from (a test service's or a published service's chaincode package); a copy of its own is recorded (removing
 * the version removes the copy, never the upload). Without such a file it stays where it is unpacked, as before.
 * Answers the version's package file, if any.
 */
export async function linkPackage(kept: Kept, channel: string, row: Version): Promise<number | null> {
  const store = kept.files;
  if (row.packageFileId !== null || !store) return row.packageFileId;
  try {
    const [same] = await kept.db.select({ id: files.id }).from(files).where(eq(files.blob, row.digest)).limit(1);
    if (!same) {
      console.warn(
        `fabric: ${channel}/${row.name}/${row.version} predates kept packages and no stored file has its zip`,
      );
      return null;
    }
    return await kept.db.transaction(async (tx) => {
      await kept.fence?.(tx);
      const copy = await store.copy(tx, same.id, kept.now());
      if (!copy) return null;
      const [linked] = await tx
        .update(fabricChaincodes)
        .set({ packageFileId: copy.id })
        .where(
          and(
            eq(fabricChaincodes.channel, channel),
            eq(fabricChaincodes.name, row.name),
            eq(fabricChaincodes.version, row.version),
            isNull(fabricChaincodes.packageFileId),
          ),
        )
        .returning({ id: fabricChaincodes.packageFileId });
      if (!linked) await store.remove(tx, copy.id);
      return linked?.id ?? null;
    });
  } catch (error) {
    // The channel opens all the same: its package is only needed where it is not unpacked yet.
    console.error(`fabric: could not keep the package of ${channel}/${row.name}/${row.version}`, error);
    return null;
  }
}

/**
 * A package installed by another process (the peer's previous holder, maybe on another host) is unpacked into `dir`
 * from its zip in the file store, checked against the digest recorded at install.
 */
export async function restorePackage(kept: Kept, dir: string, row: Version): Promise<void> {
  if (existsSync(dir) || row.packageFileId === null || !kept.files) return;
  const file = await kept.files.read(kept.db, row.packageFileId);
  if (!file || digestOf(file.bytes) !== row.digest) {
    console.error(`fabric: the package of ${dir} (${row.name} ${row.version}) is missing from the file store`);
    return;
  }
  const check = checkPackage(file.bytes);
  if (check.ok) await unpack(check.files, dir);
}
