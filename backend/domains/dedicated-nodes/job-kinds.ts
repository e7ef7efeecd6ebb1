import { eq } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { networkOf, networks, type ProjectRow } from "./projects.ts";
import { prnProjects } from "./tables.ts";
import inbox from "#backend/domains/inbox/index.ts";

/**
 * The background jobs of dedicated nodes (docs/decisions/047), each safe to run again after a crash:
 * - `dedicated.deploy`: 1 → 2 → 3 (networks.deploy is idempotent by name), or 4 with the provisioner's reason
 *   after three attempts (the first period refunded);
 * - `dedicated.upgrade`: node count → networks.scale (the new peers start and catch up); host configuration and
 *   data capacity → networks.setLimits, the running nodes' request rate and storage limit changed without a
 *   restart (contract/dedicated-node-limits.ts, docs/decisions/074); a failure keeps the reason and refunds the
 *   difference;
 * - `dedicated.purge`: at the end of the paid period of a deleted or unsubscribed project, networks.remove;
 * - `dedicated.renewals`: hourly; a running project whose period ended is charged the next period from the
 *   balance; when it cannot be, the nodes stop and the bill stays unpaid (it blocks payType 2) until the end
 *   of that period, when the project lapses (→ 6) and its data is removed; paying it resumes the nodes;
 * - `dedicated.resume`: restarts the nodes of a project whose renewal was paid late.
 * Each outcome the owner did not watch happen (running, failed and refunded, an upgrade's end, a renewal paid or
 * not, a lapse) leaves a message in the owner's inbox, in the same transaction as the change it reports.
 */
export const JOB_DEPLOY = "dedicated.deploy";
export const JOB_UPGRADE = "dedicated.upgrade";
export const JOB_PURGE = "dedicated.purge";
export const JOB_RENEWALS = "dedicated.renewals";
export const JOB_RESUME = "dedicated.resume";

export const HOUR_MS = 3_600_000;

/** An inbox message of this domain: its text is messages.dedicatedNodes.<key> in locales/<lang>/messages.json. */
type Told =
  | "deployed"
  | "deployFailed"
  | "upgradeSucceeded"
  | "upgradeFailed"
  | "renewalPaid"
  | "renewalUnpaid"
  | "resumed"
  | "lapsed";
export const tell = (tx: Db | Tx, userId: number, key: Told, params: Record<string, string>, now: Date) =>
  inbox.api.notify(tx, { userId, textKey: `messages.dedicatedNodes.${key}`, params, at: now });
export const usd = (cents: number) => (cents / 100).toFixed(2);

export const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);
export const idOf = (payload: Record<string, unknown>, key: string) => Number(payload[key]);

export async function projectById(db: Db | Tx, id: number, lock = false): Promise<ProjectRow | undefined> {
  const q = db.select().from(prnProjects).where(eq(prnProjects.id, id));
  const [row] = lock ? await q.for("update") : await q;
  return row;
}

/** Stops a project's nodes when they run (a stopped or absent network is left as it is). */
export async function stopNetwork(deps: Deps, project: ProjectRow): Promise<void> {
  const status = await networks.status(deps, networkOf(project));
  if (status && status.state === "running") await networks.stop(deps, networkOf(project));
}

export const projectOwner = async (payload: Record<string, unknown>, db: Db) => {
  const p = await projectById(db, idOf(payload, "projectId"));
  return p ? { userId: p.userId, subject: p.name } : null;
};
