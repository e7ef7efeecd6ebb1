import { asc, eq, inArray } from "drizzle-orm";
import { AuditState } from "#contract/participation-codes.ts";
import { appJoins } from "#backend/domains/participation/tables.ts";
import { users } from "#backend/db/tables.ts";
import type { SignedInContext, Payload } from "#backend/http/router.ts";
import { applyJoinEvent, startOrder } from "#backend/domains/participation/audit.ts";
import { me, joinNodes, joinRequests, manageRow } from "./shared.ts";

/** Operations queue: requests the publisher approved (1), oldest first. */
export async function opsList(input: Payload<"/sys/ops/participations/list">, ctx: SignedInContext) {
  const db = ctx.deps.db;
  const publishers = users;
  const { total, rows } = await joinRequests(
    db,
    eq(appJoins.auditState, AuditState.PUBLISHER_APPROVED),
    [asc(appJoins.updatedAt), asc(appJoins.id)],
    input.pageIndex,
    input.pageSize,
  );
  const ownerIds = [...new Set(rows.map((r) => r.app.userId))];
  const owners = ownerIds.length
    ? await db
        .select({ id: publishers.id, userName: publishers.userName })
        .from(publishers)
        .where(inArray(publishers.id, ownerIds))
    : [];
  const out = [];
  for (const r of rows) {
    const nodes = await joinNodes(db, r.join.id);
    out.push({
      ...manageRow(r),
      publisher: owners.find((o) => o.id === r.app.userId)?.userName ?? "",
      cityNodes: nodes.map((n) => n.name),
    });
  }
  return { page: { rows: out, total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/** An operator approves (1 → 3, then the order or the work order starts) or rejects (→ 4, comments required). */
export async function opsDecide(input: Payload<"/sys/ops/participations/decide">, ctx: SignedInContext) {
  const user = me(ctx);
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
    const r = await applyJoinEvent(tx, {
      joinId: input.appJoinAuditId,
      event: input.decision === "approve" ? "operatorApprove" : "operatorReject",
      actor: "operator",
      actorId: user.id,
      comments: input.comments,
      now,
    });
    if (r.to !== 3) return { auditState: r.to };
    await startOrder(tx, input.appJoinAuditId, now);
    const [after] = await tx
      .select({ s: appJoins.auditState })
      .from(appJoins)
      .where(eq(appJoins.id, input.appJoinAuditId));
    return { auditState: after.s };
  });
}
