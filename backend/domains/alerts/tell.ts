import { and, inArray } from "drizzle-orm";
import type { AlertKind } from "#contract/alerts.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import inbox from "#backend/domains/inbox/index.ts";
import { alertFirings } from "./tables.ts";
import { alertEvent, scheduleDelivery } from "./webhook.ts";

/**
 * How an alert is told (docs/decisions/087, 090): its firing rows are inserted, one per threshold reached, and only an
 * insert that made a row tells, so two processes checking at once tell it once. `told` is the one place a firing
 * reaches the account: the Message center and mail by role (ADR 085), and the account's webhook when it has one
 * enabled (ADR 092: its delivery and the job that sends it are made here, in the same transaction).
 */

/** A message of the `messages` namespace with its params (translated when it is shown or mailed). */
export type AlertNotice = { textKey: string; params: Record<string, string> };

/** What a check found reached: the same kind, subject and period, one or more thresholds. */
export type Candidate = {
  accountId: number;
  kind: AlertKind;
  /** 0 for the account's money. */
  subjectId: number;
  subjectName: string;
  /** The thresholds reached, least urgent first (50, 80, 100; 7 days, 1 day). */
  reached: number[];
  period: string;
  value: number;
  limit: number;
  /** The message of the most urgent threshold newly reached. */
  notice: (threshold: number) => AlertNotice;
};

export type Firing = typeof alertFirings.$inferSelect;

/** Tells one firing just recorded, in the transaction that recorded it. */
export async function told(tx: Db | Tx, firing: Firing, notice: AlertNotice): Promise<void> {
  await inbox.api.notify(tx, {
    userId: firing.accountId,
    textKey: notice.textKey,
    params: notice.params,
    at: firing.firedAt,
    ref: { kind: "alert", id: firing.id },
  });
  await scheduleDelivery(tx, firing.accountId, firing.kind, firing.id, alertEvent(firing, notice), firing.firedAt);
}

/**
 * Records the thresholds of `c` not recorded yet and tells the most urgent of them, in the caller's transaction;
 * answers 1 when it told, 0 when every threshold was told before (by this process or another).
 */
export async function fireInTx(tx: Db | Tx, c: Candidate, now: Date): Promise<number> {
  if (c.reached.length === 0) return 0;
  const fired = await tx
    .insert(alertFirings)
    .values(
      c.reached.map((threshold) => ({
        accountId: c.accountId,
        kind: c.kind,
        subjectId: c.subjectId,
        subjectName: c.subjectName,
        threshold,
        period: c.period,
        valueCents: c.value,
        limitCents: c.limit,
        firedAt: now,
      })),
    )
    .onConflictDoNothing()
    .returning();
  if (fired.length === 0) return 0;
  // Several thresholds reached at once are told once, at the most urgent.
  const urgency = (f: Firing) => c.reached.indexOf(f.threshold);
  const top = fired.reduce((a, b) => (urgency(b) > urgency(a) ? b : a));
  await told(tx, top, c.notice(top.threshold));
  return 1;
}

/** `fireInTx` in its own transaction. */
export const fire = (db: Db, c: Candidate, now: Date) => db.transaction((tx) => fireInTx(tx, c, now));

/**
 * The candidates with a threshold not told yet, read in one query: so that the job, which finds every subject past
 * 50 % again at each run, opens a transaction only for what is new.
 */
export async function unfired(db: Db, candidates: Candidate[]): Promise<Candidate[]> {
  if (candidates.length === 0) return [];
  const key = (accountId: number, kind: string, subjectId: number, threshold: number, period: string) =>
    `${accountId}/${kind}/${subjectId}/${threshold}/${period}`;
  const rows = await db
    .select()
    .from(alertFirings)
    .where(
      and(
        inArray(alertFirings.kind, [...new Set(candidates.map((c) => c.kind))]),
        inArray(alertFirings.period, [...new Set(candidates.map((c) => c.period))]),
        inArray(alertFirings.accountId, [...new Set(candidates.map((c) => c.accountId))]),
      ),
    );
  const done = new Set(rows.map((r) => key(r.accountId, r.kind, r.subjectId, r.threshold, r.period)));
  return candidates.filter((c) => c.reached.some((t) => !done.has(key(c.accountId, c.kind, c.subjectId, t, c.period))));
}

/** Fires each candidate (its own transaction each, so one failure does not undo the others told); answers how many told. */
export async function fireAll(db: Db, candidates: Candidate[], now: Date): Promise<number> {
  let n = 0;
  for (const c of candidates) n += await fire(db, c, now);
  return n;
}
