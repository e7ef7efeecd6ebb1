import { and, asc, count, eq, inArray, isNull, ne } from "drizzle-orm";
import { DOC_SEARCH_KIND } from "#contract/docs-codes.ts";
import { Msg } from "#contract/messages.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { CallContext, Payload, SignedInContext } from "#backend/http/router.ts";
import { searchItems } from "#backend/kit/search.ts";
import type { Tx } from "#backend/db/client.ts";
import { docPages } from "./tables.ts";
import { parentAllowed, reindex, snippetOf } from "./rules.ts";

type PageRow = typeof docPages.$inferSelect;

const entryOf = (p: PageRow) => ({
  docId: p.id,
  slug: p.slug,
  parentId: p.parentId,
  position: p.position,
  titleEn: p.titleEn,
  titleZh: p.titleZh,
});
const pageOf = (p: PageRow) => ({
  ...entryOf(p),
  bodyEn: p.bodyEn,
  bodyZh: p.bodyZh,
  published: p.published,
  shippedKey: p.shippedKey,
  operatorEdited: p.operatorEdited,
  updatedAt: p.updatedAt.toISOString(),
});

/** Pages in the order of the table of contents: each parent followed by its children, by position. */
function treeOrder<T extends { id: number; parentId: number | null; position: number }>(rows: T[]): T[] {
  const byParent = new Map<number | null, T[]>();
  const ids = new Set(rows.map((r) => r.id));
  for (const r of rows) {
    const parent = r.parentId !== null && ids.has(r.parentId) ? r.parentId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), r]);
  }
  const out: T[] = [];
  const walk = (parent: number | null) => {
    for (const r of (byParent.get(parent) ?? []).sort((a, b) => a.position - b.position || a.id - b.id)) {
      out.push(r);
      walk(r.id);
    }
  };
  walk(null);
  return out;
}

export async function toc(_input: Payload<"/anon/docs/toc">, ctx: CallContext) {
  const rows = await ctx.deps.db.select().from(docPages).where(eq(docPages.published, true));
  // A published page under an unpublished parent is left out with it.
  const byId = new Map(rows.map((x) => [x.id, x]));
  const visible = rows.filter((r) => {
    for (
      let at: PageRow | undefined = r, hops = 0;
      at && hops < 1000;
      at = at.parentId === null ? undefined : byId.get(at.parentId), hops++
    ) {
      if (at.parentId !== null && !byId.has(at.parentId)) return false;
    }
    return true;
  });
  return treeOrder(visible).map(entryOf);
}

export async function page(input: Payload<"/anon/docs/page">, ctx: CallContext) {
  const [row] = await ctx.deps.db
    .select()
    .from(docPages)
    .where(and(eq(docPages.slug, input.slug), eq(docPages.published, true)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return pageOf(row);
}

export async function search(input: Payload<"/anon/docs/search">, ctx: CallContext) {
  const { db } = ctx.deps;
  const hits = await searchItems(db, { kind: DOC_SEARCH_KIND, query: input.q, lang: input.lang, limit: input.limit });
  if (hits.length === 0) return { rows: [] };
  const rows = await db
    .select()
    .from(docPages)
    .where(and(inArray(docPages.id, [...new Set(hits.map((h) => h.itemId))]), eq(docPages.published, true)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    rows: hits.flatMap((h) => {
      const p = byId.get(h.itemId);
      if (!p) return [];
      const lang = h.lang === "zh-CN" ? ("zh-CN" as const) : ("en" as const);
      return [{ ...entryOf(p), lang, snippet: snippetOf(lang === "zh-CN" ? p.bodyZh : p.bodyEn) }];
    }),
  };
}

/* ------------------------------------------ operations ----------------------------------------- */

export async function opsList(input: Payload<"/sys/ops/docs/list">, ctx: SignedInContext) {
  const rows = treeOrder(await ctx.deps.db.select().from(docPages));
  const start = (input.pageIndex - 1) * input.pageSize;
  return {
    page: {
      rows: rows.slice(start, start + input.pageSize).map((p) => ({
        ...entryOf(p),
        published: p.published,
        shippedKey: p.shippedKey,
        operatorEdited: p.operatorEdited,
        updatedAt: p.updatedAt.toISOString(),
      })),
      total: rows.length,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    },
  };
}

async function lockedPage(tx: Tx, docId: number): Promise<PageRow> {
  const [row] = await tx.select().from(docPages).where(eq(docPages.id, docId)).for("update");
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

export async function opsDetail(input: Payload<"/sys/ops/docs/detail">, ctx: SignedInContext) {
  const [row] = await ctx.deps.db.select().from(docPages).where(eq(docPages.id, input.docId));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return pageOf(row);
}

/** Creates or changes a page: slug unique, parent neither the page nor one of its sub-pages; reindexed at once. */
export async function opsSave(input: Payload<"/sys/ops/docs/save">, ctx: SignedInContext) {
  const { form } = input;
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
    const current = input.docId ? await lockedPage(tx, input.docId) : null;
    const [clash] = await tx
      .select({ id: docPages.id })
      .from(docPages)
      .where(and(eq(docPages.slug, form.slug), current ? ne(docPages.id, current.id) : undefined));
    if (clash) throw fieldError("form.slug", Msg.DOC_SLUG_TAKEN, Msg.DOC_SLUG_TAKEN);
    const parentId = form.parentId ?? null;
    if (parentId !== null) {
      const all = await tx.select({ id: docPages.id, parentId: docPages.parentId }).from(docPages);
      if (!parentAllowed(current?.id ?? null, parentId, new Map(all.map((r) => [r.id, r.parentId]))))
        throw fieldError("form.parentId", Msg.DOC_PARENT_INVALID, Msg.DOC_PARENT_INVALID);
    }
    const fields = {
      slug: form.slug,
      parentId,
      titleEn: form.titleEn,
      titleZh: form.titleZh,
      bodyEn: form.bodyEn,
      bodyZh: form.bodyZh,
      published: form.published === "on",
      operatorEdited: true,
      updatedAt: now,
    };
    let id: number;
    if (current) {
      const moved = current.parentId !== parentId;
      const position = moved ? await nextPosition(tx, parentId) : current.position;
      await tx
        .update(docPages)
        .set({ ...fields, position })
        .where(eq(docPages.id, current.id));
      id = current.id;
    } else {
      const [row] = await tx
        .insert(docPages)
        .values({ ...fields, position: await nextPosition(tx, parentId), createdAt: now })
        .returning({ id: docPages.id });
      id = row.id;
    }
    await reindex(tx, { id, ...fields });
    return { docId: id, slug: form.slug };
  });
}

async function nextPosition(tx: Tx, parentId: number | null) {
  const [{ n }] = await tx
    .select({ n: count() })
    .from(docPages)
    .where(parentId === null ? isNull(docPages.parentId) : eq(docPages.parentId, parentId));
  return n + 1;
}

/** Swaps the page with its previous or next sibling (positions are renumbered 1..n first). */
export async function opsMove(input: Payload<"/sys/ops/docs/move">, ctx: SignedInContext) {
  return ctx.deps.db.transaction(async (tx) => {
    const page = await lockedPage(tx, input.docId);
    const siblings = await tx
      .select()
      .from(docPages)
      .where(page.parentId === null ? isNull(docPages.parentId) : eq(docPages.parentId, page.parentId))
      .orderBy(asc(docPages.position), asc(docPages.id))
      .for("update");
    const i = siblings.findIndex((s) => s.id === page.id);
    const j = input.direction === "up" ? i - 1 : i + 1;
    if (j >= 0 && j < siblings.length) [siblings[i], siblings[j]] = [siblings[j], siblings[i]];
    for (const [k, s] of siblings.entries())
      if (s.position !== k + 1)
        await tx
          .update(docPages)
          .set({ position: k + 1 })
          .where(eq(docPages.id, s.id));
    return { docId: page.id, position: siblings.findIndex((s) => s.id === page.id) + 1 };
  });
}

export async function opsPublish(input: Payload<"/sys/ops/docs/publish">, ctx: SignedInContext) {
  return ctx.deps.db.transaction(async (tx) => {
    const page = await lockedPage(tx, input.docId);
    await tx
      .update(docPages)
      .set({ published: input.published, operatorEdited: true, updatedAt: ctx.deps.now() })
      .where(eq(docPages.id, page.id));
    await reindex(tx, { ...page, published: input.published });
    return { docId: page.id, published: input.published };
  });
}

export async function opsDelete(input: Payload<"/sys/ops/docs/delete">, ctx: SignedInContext) {
  return ctx.deps.db.transaction(async (tx) => {
    const page = await lockedPage(tx, input.docId);
    const [child] = await tx.select({ id: docPages.id }).from(docPages).where(eq(docPages.parentId, page.id));
    if (child) throw new ApiError(Msg.DOC_HAS_CHILDREN);
    await reindex(tx, { ...page, published: false });
    await tx.delete(docPages).where(eq(docPages.id, page.id));
    return { docId: page.id };
  });
}
