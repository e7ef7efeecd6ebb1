import { and, desc, eq, gte, lte, sql } from "drizzle-orm";
import type { BreakdownLine } from "#contract/bill-breakdown.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import type { Language } from "#backend/mail.ts";
import { ipfsFiles, ipfsServices, ipfsTrafficDaily, ipfsTrafficFilesDaily } from "#backend/domains/ipfs/tables.ts";
import { apps } from "#backend/domains/services/tables.ts";
import { bills, usageDaily } from "./tables.ts";
import { addDays, dayOf } from "./time.ts";

/**
 * The usage rows a weekly usage bill charges (docs/decisions/093): consortium data traffic per day, city node,
 * service and method (usage_daily), IPFS download traffic per day, gateway, IPFS service and file (ipfs_traffic_daily
 * and ipfs_traffic_files_daily).
 * Each row is priced at its city node's price as the bill recorded it and rounded to the cent; the bill rounded
 * once per city node (jobs.ts `trafficLine`), so the difference is an explicit `rounding` line. What the bill
 * charged that its rows do not account for (a node without rows, rows that no longer give the node's amount)
 * is an `unitemised` line: never spread over the rows.
 */

type Bill = typeof bills.$inferSelect;
const MIB = 1024 * 1024;

/** One row of usage as both meters give it. */
type UsageRow = {
  day: string;
  code: string;
  place: string;
  subject: string | null;
  method: string | null;
  calls: number | null;
  bytes: number;
  cid?: string | null;
  fileName?: string | null;
  ref: BreakdownLine["ref"];
};

/** A line's fields, none set: each kind of line sets its own. */
export const EMPTY_LINE = {
  day: null,
  place: null,
  subject: null,
  method: null,
  calls: null,
  bytes: null,
  unitPriceCents: null,
  periodStart: null,
  periodEnd: null,
  cycle: null,
  cid: null,
  fileName: null,
  txHash: null,
  ref: null,
} as const;

/** The first and last UTC+8 days of a bill's period (its end is exclusive: the next Monday 00:00). */
function daysOf(bill: Bill): [string, string] {
  return [dayOf(bill.periodStart), addDays(dayOf(bill.periodEnd), -1)];
}

async function trafficRows(db: Db | Tx, bill: Bill, language: Language): Promise<UsageRow[]> {
  const [from, to] = daysOf(bill);
  const rows = await db
    .select({
      day: usageDaily.day,
      code: cityNodes.code,
      name: cityNodes.name,
      nameZh: cityNodes.nameZh,
      appId: usageDaily.appId,
      app: apps.name,
      method: usageDaily.method,
      calls: sql<string>`sum(${usageDaily.calls})`,
      bytes: sql<string>`sum(${usageDaily.bytesIn} + ${usageDaily.bytesOut})`,
    })
    .from(usageDaily)
    .innerJoin(cityNodes, eq(cityNodes.id, usageDaily.cityNodeId))
    .leftJoin(apps, eq(apps.id, usageDaily.appId))
    .where(and(eq(usageDaily.userId, bill.userId), gte(usageDaily.day, from), lte(usageDaily.day, to)))
    .groupBy(usageDaily.day, cityNodes.id, usageDaily.appId, apps.name, usageDaily.method)
    .orderBy(usageDaily.day, cityNodes.id, usageDaily.appId, usageDaily.method);
  return rows.map((r) => ({
    day: r.day,
    code: r.code,
    place: language === "zh-CN" ? r.nameZh : r.name,
    subject: r.app ?? null,
    method: r.method || null,
    calls: Number(r.calls),
    bytes: Number(r.bytes),
    ref: r.appId > 0 && r.app !== null ? { kind: "service", appId: r.appId } : null,
  }));
}

/**
 * The files (CIDs) of a user's IPFS traffic per day, gateway and service (ipfs_traffic_files_daily, docs/decisions/093),
 * each with its name while the service still keeps a file of that CID (the first name, if it has several).
 */
async function ipfsFileRows(db: Db | Tx, userId: number, from: string, to: string) {
  const f = ipfsTrafficFilesDaily;
  return db
    .select({
      serviceId: f.serviceId,
      cityNodeId: f.cityNodeId,
      day: f.day,
      cid: f.cid,
      bytes: f.bytes,
      name: sql<
        string | null
      >`(select min(${ipfsFiles.name}) from ${ipfsFiles} where ${ipfsFiles.serviceId} = ${f.serviceId} and ${ipfsFiles.cid} = ${f.cid})`,
    })
    .from(f)
    .innerJoin(ipfsServices, eq(ipfsServices.id, f.serviceId))
    .where(and(eq(ipfsServices.userId, userId), gte(f.day, from), lte(f.day, to)))
    .orderBy(f.day, f.cityNodeId, f.serviceId, desc(f.bytes), f.cid);
}

/**
 * IPFS download traffic: a row per day, gateway, service and file, and for a (day, gateway, service) whose files do
 * not account for all of its bytes (metered before the meter kept files) a row without a CID for the rest; when
 * its files would count more than it (never from the meter), the day's row alone, not itemised by file.
 */
async function ipfsRows(db: Db | Tx, bill: Bill, language: Language): Promise<UsageRow[]> {
  const [from, to] = daysOf(bill);
  const rows = await db
    .select({
      day: ipfsTrafficDaily.day,
      cityNodeId: cityNodes.id,
      code: cityNodes.code,
      name: cityNodes.name,
      nameZh: cityNodes.nameZh,
      serviceId: ipfsServices.id,
      service: ipfsServices.name,
      bytes: ipfsTrafficDaily.bytes,
    })
    .from(ipfsTrafficDaily)
    .innerJoin(ipfsServices, eq(ipfsServices.id, ipfsTrafficDaily.serviceId))
    .innerJoin(cityNodes, eq(cityNodes.id, ipfsTrafficDaily.cityNodeId))
    .where(and(eq(ipfsServices.userId, bill.userId), gte(ipfsTrafficDaily.day, from), lte(ipfsTrafficDaily.day, to)))
    .orderBy(ipfsTrafficDaily.day, cityNodes.id, ipfsServices.id);
  const files = await ipfsFileRows(db, bill.userId, from, to);
  const out: UsageRow[] = [];
  for (const r of rows) {
    const row = {
      day: r.day,
      code: r.code,
      place: language === "zh-CN" ? r.nameZh : r.name,
      subject: r.service,
      method: null,
      calls: null,
      ref: { kind: "ipfsService", ipfsServiceId: r.serviceId },
    } as const;
    const own = files.filter((f) => f.day === r.day && f.cityNodeId === r.cityNodeId && f.serviceId === r.serviceId);
    const itemised = own.reduce((n, f) => n + Number(f.bytes), 0);
    if (itemised > Number(r.bytes)) {
      out.push({ ...row, bytes: Number(r.bytes) });
      continue;
    }
    for (const f of own) out.push({ ...row, bytes: Number(f.bytes), cid: f.cid, fileName: f.name ?? null });
    if (Number(r.bytes) > itemised) out.push({ ...row, bytes: Number(r.bytes) - itemised });
  }
  return out;
}

/** Cents of `bytes` at `pricePerGbCents`, unrounded (the weekly bill's formula, jobs.ts `trafficLine`). */
const exactCents = (bytes: number, pricePerGbCents: number) => ((bytes / MIB) * pricePerGbCents) / 1024;

/**
 * The lines of a weekly traffic bill (data traffic, or IPFS traffic when `ipfs`): a line per usage row of a
 * city node the bill charged, then the rounding and what is not itemised. They add up to `bill.totalCents`.
 */
export async function usageLines(db: Db | Tx, bill: Bill, language: Language, ipfs: boolean): Promise<BreakdownLine[]> {
  const charged = bill.detail.dataUsage ?? [];
  const rows = await (ipfs ? ipfsRows(db, bill, language) : trafficRows(db, bill, language));
  const kind = ipfs ? "ipfsTraffic" : "traffic";
  const lines: BreakdownLine[] = [];
  let rounding = 0;
  let unitemised = bill.totalCents - charged.reduce((s, l) => s + l.amountCents, 0);
  for (const node of charged) {
    const own = rows.filter((r) => r.code === node.nodeCode);
    const bytes = own.reduce((s, r) => s + r.bytes, 0);
    // The rows explain the node's amount only when they still give it (same bytes, same price, same rounding).
    if (own.length === 0 || Math.round(exactCents(bytes, node.pricePerGbCents)) !== node.amountCents) {
      unitemised += node.amountCents;
      continue;
    }
    let sum = 0;
    for (const r of own) {
      const amountCents = Math.round(exactCents(r.bytes, node.pricePerGbCents));
      sum += amountCents;
      lines.push({
        ...EMPTY_LINE,
        kind,
        day: r.day,
        place: r.place,
        subject: r.subject,
        method: r.method,
        calls: r.calls,
        bytes: r.bytes,
        cid: r.cid ?? null,
        fileName: r.fileName ?? null,
        unitPriceCents: node.pricePerGbCents,
        ref: r.ref,
        amountCents,
      });
    }
    rounding += node.amountCents - sum;
  }
  lines.sort((a, b) => (a.day ?? "").localeCompare(b.day ?? "") || (a.place ?? "").localeCompare(b.place ?? ""));
  if (rounding !== 0) lines.push(adjustment("rounding", rounding));
  if (unitemised !== 0) lines.push(adjustment("unitemised", unitemised));
  return lines;
}

/** A line with an amount and nothing else: the rounding, or what the recorded usage does not itemise. */
export function adjustment(kind: "rounding" | "unitemised", amountCents: number): BreakdownLine {
  return { ...EMPTY_LINE, kind, amountCents };
}
