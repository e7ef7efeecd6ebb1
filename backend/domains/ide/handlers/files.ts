import { and, count, eq, like } from "drizzle-orm";
import { IDE_FILES_MAX } from "#contract/ide-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Tx } from "#backend/db/client.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import { filesUnder, isSolidity, movedPath, parentsOf } from "#backend/domains/ide/rules.ts";
import { ideFiles } from "#backend/domains/ide/tables.ts";
import { fileOut, ownFile, ownWorkspace, requireGrant, touch, type Ctx } from "./shared.ts";

async function pathFree(tx: Tx, workspaceId: number, path: string) {
  const [taken] = await tx
    .select({ id: ideFiles.id })
    .from(ideFiles)
    .where(and(eq(ideFiles.workspaceId, workspaceId), eq(ideFiles.path, path)));
  if (taken) throw fieldError("path", Msg.IDE_PATH_TAKEN, Msg.IDE_PATH_TAKEN);
}

/** Its parent folders, made when absent; a parent that is a file is refused. */
async function ensureParents(tx: Tx, workspaceId: number, path: string, now: Date) {
  for (const parent of parentsOf(path)) {
    const [row] = await tx
      .select()
      .from(ideFiles)
      .where(and(eq(ideFiles.workspaceId, workspaceId), eq(ideFiles.path, parent)));
    if (row && !row.folder) throw fieldError("path", Msg.IDE_BAD_PARENT, Msg.IDE_BAD_PARENT);
    if (!row)
      await tx.insert(ideFiles).values({ workspaceId, path: parent, folder: true, content: "", updatedAt: now });
  }
}

export async function createFile(input: Payload<"/sys/ide/file/create">, ctx: Ctx) {
  const now = ctx.deps.now();
  const w = await ownWorkspace(ctx.deps.db, ctx.user.id, input.workspaceId);
  await requireGrant(ctx);
  const row = await ctx.deps.db.transaction(async (tx) => {
    await ownWorkspace(tx, ctx.user.id, w.id, true);
    const [{ n }] = await tx.select({ n: count() }).from(ideFiles).where(eq(ideFiles.workspaceId, w.id));
    if (n >= IDE_FILES_MAX) throw new ApiError(Msg.IDE_TOO_MANY_FILES);
    await pathFree(tx, w.id, input.path);
    await ensureParents(tx, w.id, input.path, now);
    const content =
      input.folder || !isSolidity(input.path) ? "" : "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\n";
    const [created] = await tx
      .insert(ideFiles)
      .values({ workspaceId: w.id, path: input.path, folder: input.folder, content, updatedAt: now })
      .returning();
    await touch(tx, w, now);
    return created!;
  });
  return fileOut(row);
}

/** Renames (moves) a file, or a folder with everything under it. */
export async function renameFile(input: Payload<"/sys/ide/file/rename">, ctx: Ctx) {
  const now = ctx.deps.now();
  const w = await ownWorkspace(ctx.deps.db, ctx.user.id, input.workspaceId);
  await requireGrant(ctx);
  const row = await ctx.deps.db.transaction(async (tx) => {
    await ownWorkspace(tx, ctx.user.id, w.id, true);
    const file = await ownFile(tx, w.id, input.fileId);
    if (input.path === file.path) return file;
    if (input.path.startsWith(`${file.path}/`)) throw fieldError("path", Msg.IDE_BAD_PARENT, Msg.IDE_BAD_PARENT);
    await pathFree(tx, w.id, input.path);
    await ensureParents(tx, w.id, input.path, now);
    const children = file.folder
      ? await tx
          .select()
          .from(ideFiles)
          .where(and(eq(ideFiles.workspaceId, w.id), like(ideFiles.path, `${filesUnder(file.path)}%`)))
      : [];
    for (const child of children) {
      const to = movedPath(child.path, file.path, input.path);
      await pathFree(tx, w.id, to);
      await tx.update(ideFiles).set({ path: to, updatedAt: now }).where(eq(ideFiles.id, child.id));
    }
    const [moved] = await tx
      .update(ideFiles)
      .set({ path: input.path, updatedAt: now })
      .where(eq(ideFiles.id, file.id))
      .returning();
    await touch(tx, w, now);
    return moved!;
  });
  return fileOut(row);
}

/** Deletes a file, or a folder with everything under it. */
export async function deleteFile(input: Payload<"/sys/ide/file/delete">, ctx: Ctx) {
  const now = ctx.deps.now();
  const w = await ownWorkspace(ctx.deps.db, ctx.user.id, input.workspaceId);
  await requireGrant(ctx);
  await ctx.deps.db.transaction(async (tx) => {
    const file = await ownFile(tx, w.id, input.fileId);
    if (file.folder)
      await tx
        .delete(ideFiles)
        .where(and(eq(ideFiles.workspaceId, w.id), like(ideFiles.path, `${filesUnder(file.path)}%`)));
    await tx.delete(ideFiles).where(eq(ideFiles.id, file.id));
    await touch(tx, w, now);
  });
  return null;
}

export async function saveFile(input: Payload<"/sys/ide/file/save">, ctx: Ctx) {
  const now = ctx.deps.now();
  const w = await ownWorkspace(ctx.deps.db, ctx.user.id, input.workspaceId);
  const file = await ownFile(ctx.deps.db, w.id, input.fileId);
  await requireGrant(ctx);
  if (file.folder) throw new ApiError(Msg.IDE_NOT_A_FILE);
  const [saved] = await ctx.deps.db
    .update(ideFiles)
    .set({ content: input.content, updatedAt: now })
    .where(eq(ideFiles.id, file.id))
    .returning();
  await touch(ctx.deps.db, w, now);
  return fileOut(saved!);
}
