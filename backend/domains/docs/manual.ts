import { eq, isNotNull, sql } from "drizzle-orm";
import en from "../../../locales/en/manual.json";
import zh from "../../../locales/zh-CN/manual.json";
import type { Deps } from "#backend/deps.ts";
import { docPages, docShipped } from "./tables.ts";
import { reindex } from "./rules.ts";

/**
 * The manual the product ships (issue 15; docs/decisions/042, "Shipped content"): its texts live in
 * locales/<lang>/manual.json (both languages, checked for the same keys with every other namespace); its tree
 * is below. At every start, `writeManual`:
 * - writes a shipped page never written before (and remembers its key in doc_shipped);
 * - brings a page an operator has not edited up to the product's current text;
 * - leaves alone a page an operator edited, and never writes again a page an operator deleted.
 */
export const MANUAL_TREE: readonly { key: string; parent: string | null }[] = [
  { key: "getting-started", parent: null },
  { key: "account-register", parent: "getting-started" },
  { key: "consortium", parent: null },
  { key: "publish-service", parent: "consortium" },
  { key: "test-services", parent: "consortium" },
  { key: "join-service", parent: "consortium" },
  { key: "config-upgrade", parent: "consortium" },
  { key: "account", parent: null },
  { key: "payments", parent: "account" },
  { key: "bills-invoices", parent: "account" },
  { key: "public-chain", parent: null },
  { key: "public-chain-plans", parent: "public-chain" },
  { key: "chain-accounts", parent: "public-chain" },
  { key: "contract-deployment", parent: "public-chain" },
  { key: "ipfs", parent: null },
  { key: "ipfs-gateway", parent: "ipfs" },
  { key: "did", parent: null },
  { key: "ide", parent: null },
  { key: "ddc", parent: "public-chain" },
  { key: "dedicated-nodes", parent: null },
  { key: "cross-chain", parent: "consortium" },
  { key: "app-store", parent: null },
  { key: "developer-community", parent: null },
];

type ShippedText = { title: string; body: string };
const EN = en.pages as Record<string, ShippedText>;
const ZH = zh.pages as Record<string, ShippedText>;

/** The shipped text of a page in both languages. */
export function shippedPage(key: string) {
  const e = EN[key];
  const z = ZH[key];
  if (!e || !z) throw new Error(`manual page ${key} has no text in locales/*/manual.json`);
  return { titleEn: e.title, bodyEn: e.body, titleZh: z.title, bodyZh: z.body };
}

export async function writeManual(deps: Pick<Deps, "db" | "now">): Promise<void> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    // Several processes may start at once (WORKERS=N): one writes, the others wait and then find it written.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('docs.manual'))`);
    const written = new Set((await tx.select({ key: docShipped.key }).from(docShipped)).map((r) => r.key));
    const idOf = new Map<string, number>();
    // The shipped pages as they stand, read once: at most starts nothing changed, and nothing more is asked.
    const pageOf = new Map<number, typeof docPages.$inferSelect>();
    for (const row of await tx.select().from(docPages).where(isNotNull(docPages.shippedKey))) {
      idOf.set(row.shippedKey!, row.id);
      pageOf.set(row.id, row);
    }
    const positions = new Map<string, number>();
    for (const node of MANUAL_TREE) {
      const text = shippedPage(node.key);
      const siblingKey = node.parent ?? "";
      const position = (positions.get(siblingKey) ?? 0) + 1;
      positions.set(siblingKey, position);
      if (!written.has(node.key)) {
        // An operator's page may hold the slug already: the shipped page then takes "<key>-manual".
        const [taken] = await tx.select({ id: docPages.id }).from(docPages).where(eq(docPages.slug, node.key));
        const parentId = node.parent ? (idOf.get(node.parent) ?? null) : null;
        const [row] = await tx
          .insert(docPages)
          .values({
            slug: taken ? `${node.key}-manual` : node.key,
            parentId,
            position,
            ...text,
            shippedKey: node.key,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: docPages.id });
        idOf.set(node.key, row.id);
        await tx.insert(docShipped).values({ key: node.key, writtenAt: now });
        await reindex(tx, { id: row.id, ...text, published: true });
        continue;
      }
      const id = idOf.get(node.key);
      if (id === undefined) continue; // deleted by an operator: not written again
      const page = pageOf.get(id);
      if (!page || page.operatorEdited) continue; // edited by an operator: theirs
      if (
        page.titleEn === text.titleEn &&
        page.bodyEn === text.bodyEn &&
        page.titleZh === text.titleZh &&
        page.bodyZh === text.bodyZh
      )
        continue;
      await tx
        .update(docPages)
        .set({ ...text, updatedAt: now })
        .where(eq(docPages.id, id));
      await reindex(tx, { id, ...text, published: page.published });
    }
  });
}
