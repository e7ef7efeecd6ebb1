import { eq } from "drizzle-orm";
import { LEGAL_PAGES, type LegalPage } from "#contract/legal.ts";
import { users } from "#backend/db/tables.ts";
import type { Handler } from "#backend/http/router.ts";
import type { Db } from "#backend/db/client.ts";
import { contactAddresses, legalTexts } from "./tables.ts";

/** The legal and contact texts (issue 30 item 16; docs/decisions/089; contract/legal.ts). */

async function savedText(db: Db, page: LegalPage) {
  const [row] = await db
    .select({ text: legalTexts, updatedBy: users.userName })
    .from(legalTexts)
    .leftJoin(users, eq(users.id, legalTexts.updatedBy))
    .where(eq(legalTexts.page, page));
  if (!row) return null;
  const { text } = row;
  return {
    page: text.page as LegalPage,
    titleEn: text.titleEn,
    titleZh: text.titleZh,
    introEn: text.introEn,
    introZh: text.introZh,
    bodyEn: text.bodyEn,
    bodyZh: text.bodyZh,
    updatedAt: text.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  };
}

async function contactOf(db: Db) {
  const [row] = await db
    .select({ c: contactAddresses, updatedBy: users.userName })
    .from(contactAddresses)
    .leftJoin(users, eq(users.id, contactAddresses.updatedBy))
    .where(eq(contactAddresses.id, 1));
  return {
    supportEmail: row?.c.supportEmail ?? "",
    partnersEmail: row?.c.partnersEmail ?? "",
    updatedAt: row ? row.c.updatedAt.toISOString() : null,
    updatedBy: row?.updatedBy ?? null,
  };
}

export const publicPage: Handler<"/anon/legal/page"> = async (input, { deps }) => {
  const [text, { supportEmail, partnersEmail }] = await Promise.all([
    savedText(deps.db, input.page),
    contactOf(deps.db),
  ]);
  return { text, contact: { supportEmail, partnersEmail } };
};

export const opsList: Handler<"/sys/ops/legal/list"> = async (_input, { deps }) => {
  const [rows, contact] = await Promise.all([
    deps.db
      .select({ page: legalTexts.page, updatedAt: legalTexts.updatedAt, updatedBy: users.userName })
      .from(legalTexts)
      .leftJoin(users, eq(users.id, legalTexts.updatedBy)),
    contactOf(deps.db),
  ]);
  const byPage = new Map(rows.map((r) => [r.page, r]));
  const pages = LEGAL_PAGES.map((page) => {
    const row = byPage.get(page);
    return { page, updatedAt: row ? row.updatedAt.toISOString() : null, updatedBy: row?.updatedBy ?? null };
  });
  return { pages, contact };
};

export const opsDetail: Handler<"/sys/ops/legal/detail"> = async (input, { deps }) => savedText(deps.db, input.page);

export const opsSave: Handler<"/sys/ops/legal/save"> = async (input, { deps, user }) => {
  const values = { ...input.form, updatedAt: deps.now(), updatedBy: user.id };
  await deps.db
    .insert(legalTexts)
    .values({ page: input.page, ...values })
    .onConflictDoUpdate({ target: legalTexts.page, set: values });
  return { page: input.page };
};

export const opsContact: Handler<"/sys/ops/legal/contact"> = async (input, { deps, user }) => {
  const values = { ...input.form, updatedAt: deps.now(), updatedBy: user.id };
  await deps.db
    .insert(contactAddresses)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: contactAddresses.id, set: values });
  return input.form;
};
