import { and, asc, count, desc, eq, lte } from "drizzle-orm";
import { IDE_GRANT_MINUTES } from "#contract/ide-codes.ts";
import { Msg } from "#contract/messages.ts";
import { fieldError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import { parentsOf } from "#backend/domains/ide/rules.ts";
import { ideCompiled, ideFiles, ideGrants, ideWorkspaces } from "#backend/domains/ide/tables.ts";
import { listIdeTemplates } from "#backend/domains/ide/templates.ts";
import { GRANT_MS, deploymentsOf, fileOut, ownWorkspace, requireGrant, type Ctx, workspaceOut } from "./shared.ts";

/** SPEC §8 IDE authorisation: issued (or renewed) for the caller's session when the portal opens. */
export async function issueGrant(_input: Payload<"/sys/ide/grant">, ctx: Ctx) {
  const now = ctx.deps.now();
  const expiresAt = new Date(now.getTime() + GRANT_MS);
  await ctx.deps.db.transaction(async (tx) => {
    // Grants of sessions that ended are of no use: each issue clears the caller's expired ones.
    await tx.delete(ideGrants).where(and(eq(ideGrants.userId, ctx.user.id), lte(ideGrants.expiresAt, now)));
    await tx
      .insert(ideGrants)
      .values({ tokenHash: ctx.tokenHash, userId: ctx.user.id, issuedAt: now, expiresAt })
      .onConflictDoUpdate({ target: ideGrants.tokenHash, set: { userId: ctx.user.id, issuedAt: now, expiresAt } });
  });
  return { expiresAt: expiresAt.toISOString(), minutes: IDE_GRANT_MINUTES };
}

export async function listTemplates(_input: Payload<"/sys/ide/template/list">, ctx: Ctx) {
  return (await listIdeTemplates(ctx.deps)).map((t) => ({
    templateId: t.templateId,
    origin: t.origin,
    title: t.title,
    files: Object.keys(t.files),
  }));
}

export async function listWorkspaces(input: Payload<"/sys/ide/workspace/list">, ctx: Ctx) {
  const db = ctx.deps.db;
  const where = eq(ideWorkspaces.userId, ctx.user.id);
  const [{ total }] = await db.select({ total: count() }).from(ideWorkspaces).where(where);
  const rows = await db
    .select()
    .from(ideWorkspaces)
    .where(where)
    .orderBy(desc(ideWorkspaces.updatedAt), desc(ideWorkspaces.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const out = [];
  for (const w of rows) out.push(await workspaceOut(db, w));
  return { page: { rows: out, total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/** A new workspace with the template's files (and their folders). */
export async function createWorkspace(input: Payload<"/sys/ide/workspace/create">, ctx: Ctx) {
  const template = (await listIdeTemplates(ctx.deps)).find((t) => t.templateId === input.templateId);
  if (!template) throw fieldError("templateId", Msg.IDE_TEMPLATE_UNKNOWN, Msg.IDE_TEMPLATE_UNKNOWN);
  const now = ctx.deps.now();
  const row = await ctx.deps.db.transaction(async (tx) => {
    const [w] = await tx
      .insert(ideWorkspaces)
      .values({
        userId: ctx.user.id,
        name: input.name,
        templateId: template.templateId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const folders = [...new Set(Object.keys(template.files).flatMap(parentsOf))];
    const values = [
      ...folders.map((path) => ({ workspaceId: w!.id, path, folder: true, content: "", updatedAt: now })),
      ...Object.entries(template.files).map(([path, content]) => ({
        workspaceId: w!.id,
        path,
        folder: false,
        content,
        updatedAt: now,
      })),
    ];
    if (values.length) await tx.insert(ideFiles).values(values);
    return w!;
  });
  return workspaceOut(ctx.deps.db, row);
}

export async function renameWorkspace(input: Payload<"/sys/ide/workspace/rename">, ctx: Ctx) {
  const w = await ownWorkspace(ctx.deps.db, ctx.user.id, input.workspaceId);
  const [row] = await ctx.deps.db
    .update(ideWorkspaces)
    .set({ name: input.name, updatedAt: ctx.deps.now() })
    .where(eq(ideWorkspaces.id, w.id))
    .returning();
  return workspaceOut(ctx.deps.db, row!);
}

/** Deletes a workspace with its files; the contracts deployed from it stay deployments of their projects. */
export async function deleteWorkspace(input: Payload<"/sys/ide/workspace/delete">, ctx: Ctx) {
  const w = await ownWorkspace(ctx.deps.db, ctx.user.id, input.workspaceId);
  await ctx.deps.db.delete(ideWorkspaces).where(eq(ideWorkspaces.id, w.id));
  return null;
}

export async function openWorkspace(input: Payload<"/sys/ide/workspace/open">, ctx: Ctx) {
  const db = ctx.deps.db;
  const w = await ownWorkspace(db, ctx.user.id, input.workspaceId);
  const expiresAt = await requireGrant(ctx);
  const files = await db.select().from(ideFiles).where(eq(ideFiles.workspaceId, w.id)).orderBy(asc(ideFiles.path));
  const compiled = await db
    .select()
    .from(ideCompiled)
    .where(eq(ideCompiled.workspaceId, w.id))
    .orderBy(asc(ideCompiled.file), asc(ideCompiled.name));
  return {
    ...(await workspaceOut(db, w)),
    files: files.map(fileOut),
    compiled: compiled.map((c) => ({
      file: c.file,
      name: c.name,
      abi: c.abi,
      bytecode: c.bytecode,
      compiledAt: c.compiledAt.toISOString(),
    })),
    diagnostics: w.diagnostics.map((d) => ({ ...d, severity: d.severity as "error" | "warning" | "info" })),
    compiledAt: w.compiledAt?.toISOString() ?? null,
    compiler: w.compiler,
    deployments: await deploymentsOf(db, w.id),
    grantExpiresAt: expiresAt.toISOString(),
  };
}
