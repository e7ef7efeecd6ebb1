import { and, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import type { SearchHit } from "#contract/search.ts";
import { SEARCH_KIND_LIMIT } from "#contract/search.ts";
import { messages } from "#backend/db/tables.ts";
import { ddcs } from "#backend/domains/ddc/tables.ts";
import { didCredentials } from "#backend/domains/did/tables.ts";
import inbox from "#backend/domains/inbox/index.ts";
import type { Finder } from "./finders.ts";

/*
 * The finders added to the first cut (issue 35 §2, docs/decisions/089): DDC certificates by their token id or name,
 * DID credentials by their number, and the Message center's messages by the names and numbers they mention.
 */

const LIMIT = SEARCH_KIND_LIMIT;
/** Messages whose parameters, read as one text, contain the query: at most this many are tested value by value. */
const CANDIDATES = 200;
const shortened = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** DDC certificates by token id (the DDC's number on its chain) or name, among the account's. */
export const findDdcs: Finder = async (db, userId, q) => {
  const match: SQL[] = [ilike(ddcs.name, q.contains)];
  if (q.numberId) match.push(eq(ddcs.id, q.numberId));
  const rows = await db
    .select({ id: ddcs.id, name: ddcs.name })
    .from(ddcs)
    .where(and(eq(ddcs.userId, userId), or(...match)))
    .orderBy(desc(ddcs.id))
    .limit(LIMIT);
  return rows.map((r) => ({
    kind: "ddc",
    label: r.name,
    detail: `#${r.id}`,
    match: r.id === q.numberId ? "exact" : "words",
    target: { page: "ddc", id: r.id },
  }));
};

/** A credential by its number, issued by the account or to it. */
export const findCredentials: Finder = async (db, userId, q) => {
  if (!q.numberId) return [];
  const rows = await db
    .select({ id: didCredentials.id, subjectDid: didCredentials.subjectDid })
    .from(didCredentials)
    .where(
      and(
        eq(didCredentials.id, q.numberId),
        or(eq(didCredentials.issuerUserId, userId), eq(didCredentials.subjectUserId, userId)),
      ),
    );
  return rows.map((r) => ({
    kind: "did",
    label: `#${r.id}`,
    detail: r.subjectDid,
    match: "exact",
    target: { page: "credential", id: r.id },
  }));
};

/** The account's messages that name what was asked for (a bill's number, a service's name…), newest first. */
export const findMessages: Finder = async (db, userId, q, lang) => {
  // A cheap first pass over the parameters as one text (it also matches their names), then the exact test on each
  // value of the few left: expanding every message's parameters was most of a search's time on a grown account.
  const candidates = db
    .select({
      id: messages.id,
      textKey: messages.textKey,
      params: messages.params,
      refKind: messages.refKind,
      refId: messages.refId,
    })
    .from(messages)
    .where(and(eq(messages.userId, userId), sql`${messages.params}::text ilike ${q.contains}`))
    .orderBy(desc(messages.id))
    .limit(CANDIDATES)
    .as("candidates");
  const rows = await db
    .select()
    .from(candidates)
    .where(sql`exists (select 1 from jsonb_each_text(${candidates.params}) p where p.value ilike ${q.contains})`)
    .orderBy(desc(candidates.id))
    .limit(LIMIT);
  return Promise.all(
    rows.map(async (r): Promise<SearchHit> => {
      const exact = Object.values(r.params).some((v) => q.codes.includes(v));
      return {
        kind: "message",
        label: shortened(await inbox.api.messageText(lang, r.textKey, r.params)),
        detail: null,
        match: exact ? "exact" : "words",
        target: {
          page: "message",
          id: r.id,
          ...(r.refKind && r.refId !== null ? { ref: { kind: r.refKind, id: r.refId } } : {}),
        },
      };
    }),
  );
};
