import { and, desc, eq, ilike, inArray, or, type SQL } from "drizzle-orm";
import type { SearchHit } from "#contract/search.ts";
import { DOC_SEARCH_KIND } from "#contract/docs.ts";
import { SEARCH_KIND_LIMIT } from "#contract/search.ts";
import type { Db } from "#backend/db/client.ts";
import { searchItems } from "#backend/kit/search.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { chains, chainTxs } from "#backend/domains/chain/tables.ts";
import { pubChainContracts } from "#backend/domains/contracts/tables.ts";
import { didIdentifiers } from "#backend/domains/did/tables.ts";
import { docPages } from "#backend/domains/docs/tables.ts";
import { invoiceApplications } from "#backend/domains/invoices/tables.ts";
import { ipfsFiles, ipfsServices } from "#backend/domains/ipfs/tables.ts";
import { payments, withdrawals } from "#backend/domains/payments/tables.ts";
import { pubChainAccounts, pubChainGas, pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { apps } from "#backend/domains/services/tables.ts";
import { supportTickets } from "#backend/domains/support/tables.ts";
import { testServices } from "#backend/domains/test-services/tables.ts";
import { snippetOf, type QueryShape } from "./rules.ts";

/**
 * One finder per kind of result (issue 35 §2, docs/decisions/086). Each reads the other domains' tables for
 * the acting account only (`userId`): an exact number, code, hash, CID or address by its indexed column, a
 * name by `ILIKE` among the account's own rows. At most SEARCH_KIND_LIMIT results of a kind.
 */
export type Finder = (db: Db, userId: number, q: QueryShape, lang: "en" | "zh-CN") => Promise<SearchHit[]>;

const LIMIT = SEARCH_KIND_LIMIT;
const exactOr = (exact: boolean): SearchHit["match"] => (exact ? "exact" : "words");

/** Published services by APPCode (unique) or name, and test services the same way (their APPCodes are their own). */
export const findServices: Finder = async (db, userId, q) => {
  const [published, tests] = await Promise.all([
    db
      .select({ id: apps.id, name: apps.name, appCode: apps.appCode })
      .from(apps)
      .where(and(eq(apps.userId, userId), or(inArray(apps.appCode, q.codes), ilike(apps.name, q.contains))))
      .orderBy(desc(apps.id))
      .limit(LIMIT),
    db
      .select({ id: testServices.id, name: testServices.name, appCode: testServices.appCode })
      .from(testServices)
      .where(
        and(
          eq(testServices.userId, userId),
          or(inArray(testServices.appCode, q.codes), ilike(testServices.name, q.contains)),
        ),
      )
      .orderBy(desc(testServices.id))
      .limit(LIMIT),
  ]);
  const hit = (page: "service" | "testService") => (r: { id: number; name: string; appCode: string | null }) => ({
    kind: "service" as const,
    label: r.name,
    detail: r.appCode,
    match: exactOr(!!r.appCode && q.codes.includes(r.appCode)),
    target: { page, id: r.id },
  });
  return [...published.map(hit("service")), ...tests.map(hit("testService"))].slice(0, LIMIT);
};

export const findBills: Finder = async (db, userId, q) => {
  const rows = await db
    .select({ id: bills.id, billNo: bills.billNo, serviceName: bills.serviceName })
    .from(bills)
    .where(and(inArray(bills.billNo, q.codes), eq(bills.userId, userId)))
    .limit(LIMIT);
  return rows.map((r) => ({
    kind: "bill",
    label: r.billNo,
    detail: r.serviceName || null,
    match: "exact",
    target: { page: "bill", id: r.id },
  }));
};

export const findInvoices: Finder = async (db, userId, q) => {
  const rows = await db
    .select({ id: invoiceApplications.id, no: invoiceApplications.applicationNo, title: invoiceApplications.title })
    .from(invoiceApplications)
    .where(and(inArray(invoiceApplications.applicationNo, q.codes), eq(invoiceApplications.userId, userId)))
    .limit(LIMIT);
  return rows.map((r) => ({
    kind: "invoice",
    label: r.no,
    detail: r.title.title || null,
    match: "exact",
    target: { page: "invoice", id: r.id },
  }));
};

export const findPayments: Finder = async (db, userId, q) => {
  const rows = await db
    .select({ no: payments.paymentNo })
    .from(payments)
    .where(and(inArray(payments.paymentNo, q.codes), eq(payments.userId, userId)))
    .limit(LIMIT);
  return rows.map((r) => ({
    kind: "payment",
    label: r.no,
    detail: null,
    match: "exact",
    target: { page: "payment", id: r.no },
  }));
};

export const findWithdrawals: Finder = async (db, userId, q) => {
  const rows = await db
    .select({ no: withdrawals.withdrawalNo })
    .from(withdrawals)
    .where(and(inArray(withdrawals.withdrawalNo, q.codes), eq(withdrawals.userId, userId)))
    .limit(LIMIT);
  return rows.map((r) => ({
    kind: "withdrawal",
    label: r.no,
    detail: null,
    match: "exact",
    target: { page: "withdrawal", id: r.no },
  }));
};

/** Public-chain projects by name, chain accounts by address, contracts by address or deployment hash, gas by its transfer. */
export const findChain: Finder = async (db, userId, q) => {
  const hits: SearchHit[] = [];
  const projects = await db
    .select({ id: pubChainProjects.id, name: pubChainProjects.name })
    .from(pubChainProjects)
    .where(and(eq(pubChainProjects.userId, userId), ilike(pubChainProjects.name, q.contains)))
    .orderBy(desc(pubChainProjects.id))
    .limit(LIMIT);
  for (const p of projects)
    hits.push({ kind: "chain", label: p.name, detail: null, match: "words", target: { page: "project", id: p.id } });
  if (q.addresses) {
    const accounts = await db
      .select({ id: pubChainAccounts.id, name: pubChainAccounts.name, address: pubChainAccounts.address })
      .from(pubChainAccounts)
      .where(and(eq(pubChainAccounts.userId, userId), inArray(pubChainAccounts.address, q.addresses)));
    for (const a of accounts)
      hits.push({
        kind: "chain",
        label: a.address,
        detail: a.name,
        match: "exact",
        target: { page: "chainAccount", id: a.id },
      });
  }
  const contractMatch: SQL[] = [];
  if (q.addresses) contractMatch.push(inArray(pubChainContracts.address, q.addresses));
  if (q.txHash) contractMatch.push(eq(pubChainContracts.txHash, q.txHash));
  if (contractMatch.length) {
    const contracts = await db
      .select({ id: pubChainContracts.id, name: pubChainContracts.name, address: pubChainContracts.address })
      .from(pubChainContracts)
      .where(and(or(...contractMatch), eq(pubChainContracts.userId, userId)))
      .limit(LIMIT);
    for (const c of contracts)
      hits.push({
        kind: "chain",
        label: q.txHash ?? c.address ?? q.text,
        detail: c.name,
        match: "exact",
        target: { page: "contract", id: c.id },
      });
  }
  if (q.txHash) hits.push(...(await transactionsOf(db, userId, q.txHash)));
  return hits.slice(0, LIMIT);
};

/**
 * A transaction by its hash, leading to the transaction page (docs/decisions/089): a gas transfer to one of the
 * account's chain accounts, or one the chains' index says one of them sent or received (the embedded engine's).
 */
async function transactionsOf(db: Db, userId: number, hash: string): Promise<SearchHit[]> {
  const hit = (detail: string | null): SearchHit => ({
    kind: "chain",
    label: hash,
    detail,
    match: "exact",
    target: { page: "transaction", id: hash },
  });
  const [gas] = await db
    .select({ name: pubChainAccounts.name })
    .from(pubChainGas)
    .innerJoin(pubChainAccounts, eq(pubChainAccounts.id, pubChainGas.accountId))
    .where(and(eq(pubChainGas.txHash, hash), eq(pubChainGas.userId, userId)))
    .limit(1);
  if (gas) return [hit(gas.name)];
  // The chains' transaction index, by its primary key (chain, hash) on each of the few chains.
  const chainIds = (await db.select({ id: chains.id, chainId: chains.chainId }).from(chains)).flatMap((c) => [
    c.id,
    c.chainId,
  ]);
  if (chainIds.length === 0) return [];
  const txs = await db
    .select({ from: chainTxs.fromAddress, to: chainTxs.toAddress, created: chainTxs.contractAddress })
    .from(chainTxs)
    .where(and(inArray(chainTxs.chainId, [...new Set(chainIds)]), eq(chainTxs.hash, hash)))
    .limit(4);
  const parties = txs.flatMap((t) => [t.from, t.to, t.created]).flatMap((a) => (a ? [a.toLowerCase()] : []));
  if (parties.length === 0) return [];
  const [accounts, contracts] = await Promise.all([
    db
      .select({ name: pubChainAccounts.name, address: pubChainAccounts.address })
      .from(pubChainAccounts)
      .where(eq(pubChainAccounts.userId, userId)),
    db
      .select({ name: pubChainContracts.name, address: pubChainContracts.address })
      .from(pubChainContracts)
      .where(eq(pubChainContracts.userId, userId)),
  ]);
  const party = [...accounts, ...contracts].find((a) => a.address && parties.includes(a.address.toLowerCase()));
  return party ? [hit(party.name)] : [];
}

/** IPFS files by CID (its index) or by name, among the account's services. */
export const findIpfs: Finder = async (db, userId, q) => {
  const rows = await db
    .select({ serviceId: ipfsFiles.serviceId, name: ipfsFiles.name, cid: ipfsFiles.cid })
    .from(ipfsFiles)
    .innerJoin(ipfsServices, eq(ipfsServices.id, ipfsFiles.serviceId))
    .where(and(eq(ipfsServices.userId, userId), or(eq(ipfsFiles.cid, q.text), ilike(ipfsFiles.name, q.contains))))
    .orderBy(desc(ipfsFiles.id))
    .limit(LIMIT);
  return rows.map((r) => ({
    kind: "ipfs",
    label: r.name,
    detail: r.cid,
    match: exactOr(r.cid === q.text),
    target: { page: "ipfsService", id: r.serviceId, name: r.name },
  }));
};

export const findDids: Finder = async (db, userId, q) => {
  const rows = await db
    .select({ id: didIdentifiers.id, did: didIdentifiers.did, label: didIdentifiers.label })
    .from(didIdentifiers)
    .where(
      and(
        eq(didIdentifiers.userId, userId),
        or(eq(didIdentifiers.did, q.text), ilike(didIdentifiers.label, q.contains)),
      ),
    )
    .orderBy(desc(didIdentifiers.id))
    .limit(LIMIT);
  return rows.map((r) => ({
    kind: "did",
    label: r.did,
    detail: r.label || null,
    match: exactOr(r.did === q.text),
    target: { page: "did", id: r.id },
  }));
};

export const findTickets: Finder = async (db, userId, q) => {
  const match: SQL[] = [ilike(supportTickets.question, q.contains)];
  if (q.numberId) match.push(eq(supportTickets.id, q.numberId));
  const rows = await db
    .select({ id: supportTickets.id, question: supportTickets.question })
    .from(supportTickets)
    .where(and(eq(supportTickets.userId, userId), or(...match)))
    .orderBy(desc(supportTickets.id))
    .limit(LIMIT);
  return rows.map((r) => ({
    kind: "ticket",
    label: `#${r.id}`,
    detail: snippetOf(r.question),
    match: exactOr(r.id === q.numberId),
    target: { page: "ticket", id: r.id },
  }));
};

/** The manual's published pages by their words in either language (backend/kit/search.ts), shown in the caller's. */
export const findManual: Finder = async (db, _userId, q, lang) => {
  const found = await searchItems(db, { kind: DOC_SEARCH_KIND, query: q.text, limit: LIMIT * 2 });
  const hits = found.filter((h, i) => found.findIndex((o) => o.itemId === h.itemId) === i).slice(0, LIMIT);
  if (hits.length === 0) return [];
  const pages = await db
    .select()
    .from(docPages)
    .where(and(inArray(docPages.id, [...new Set(hits.map((h) => h.itemId))]), eq(docPages.published, true)));
  const byId = new Map(pages.map((p) => [p.id, p]));
  return hits.flatMap((h) => {
    const p = byId.get(h.itemId);
    if (!p) return [];
    const zh = lang === "zh-CN";
    return [
      {
        kind: "manual" as const,
        label: (zh ? p.titleZh : p.titleEn) || p.titleEn || p.titleZh,
        detail: snippetOf(zh ? p.bodyZh : p.bodyEn) || null,
        match: "words" as const,
        target: { page: "manual" as const, id: p.slug },
      },
    ];
  });
};
