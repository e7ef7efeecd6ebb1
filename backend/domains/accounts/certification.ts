import { and, asc, count, eq, isNotNull } from "drizzle-orm";
import { CertState, certificationMachine, creditCodeProblem, isChina, isValidUscc } from "#contract/certification.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { files, users } from "#backend/db/tables.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { DownloadInput, Payload, SignedInContext } from "#backend/http/router.ts";
import inbox from "#backend/domains/inbox/index.ts";

/**
 * Enterprise certification, reviewed by operations (docs/decisions/071; contract/certification.ts). The state
 * lives on the account (users.cert_state), which this domain owns: registration of an enterprise submits it
 * (→ 1), an operator approves (→ 10) or rejects with a reason (→ 5), the user answers a rejection by uploading
 * the licence again (→ 1). Company products and the DID "enterprise certified" credential wait for 10.
 */

type UserRow = typeof users.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

async function licenceName(db: Db | Tx, fileId: number | null): Promise<string | null> {
  if (!fileId) return null;
  const [f] = await db.select({ name: files.name }).from(files).where(eq(files.id, fileId));
  return f?.name ?? null;
}

/** The move of `event` by `actor` from the account's state, or the machine's refusal. */
function move(row: UserRow, event: "submit" | "approve" | "reject", actor: "user" | "operator", comments?: string) {
  const outcome = certificationMachine.transition(row.certState, event, actor, { comments: comments ?? null });
  if (!outcome.ok) throw new ApiError(outcome.messageKey);
  return outcome.to;
}

/** An account's certification state and whether it is an enterprise (other domains' gates). */
export async function certificationOf(db: Db | Tx, userId: number) {
  const [row] = await db
    .select({ userType: users.userType, certState: users.certState })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? { userType: 1, certState: CertState.NONE };
}

/**
 * The refusal of a company-only feature for an account, or null when it may use it: an individual needs an
 * enterprise account (MSG_40001); an enterprise whose certification is pending or rejected waits (MSG_49001).
 */
export async function companyFeatureRefusal(db: Db | Tx, userId: number): Promise<string | null> {
  const c = await certificationOf(db, userId);
  if (c.userType !== 2) return Msg.ENTERPRISE_REQUIRED;
  return c.certState === CertState.APPROVED ? null : Msg.CERT_NOT_APPROVED;
}

/** The caller's certification page (SPEC §3 Profile; the reason of a rejection included). */
export async function certification(_input: unknown, { deps, user }: SignedInContext) {
  const [row] = await deps.db.select().from(users).where(eq(users.id, user.id));
  return {
    userType: row.userType,
    state: row.certState,
    reason: row.certState === CertState.REJECTED ? row.certReason : null,
    companyName: row.companyName,
    country: row.country,
    creditCode: row.creditCode,
    licenceName: await licenceName(deps.db, row.licenceFileId),
    submittedAt: iso(row.certSubmittedAt),
    decidedAt: iso(row.certDecidedAt),
  };
}

/** The user answers a rejection (5 → 1) with the credit code (checked for the account's country) and a new licence. */
export async function resubmitCertification(
  input: Payload<"/sys/system/clientInfo/resubmitCertification">,
  { deps, user }: SignedInContext,
) {
  if (user.userType !== 2) throw new ApiError(Msg.CERT_ENTERPRISE_ONLY);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(users).where(eq(users.id, user.id)).for("update");
    const to = move(row, "submit", "user");
    const creditCode = input.creditCode.trim();
    const problem = creditCodeProblem(row.country, creditCode);
    if (problem) throw fieldError("creditCode", problem, Msg.INVALID_PARAMS);
    // The licence kind is uploaded without a session (registration), so its uploader is never recorded.
    const file = await deps.files.claim(tx, input.licence.uploadId, { kind: "licence", ownerId: null, at: now });
    if (!file) throw fieldError("licence", `errors:${Msg.UPLOAD_FAILED}`, Msg.UPLOAD_FAILED);
    await tx
      .update(users)
      .set({ certState: to, certReason: null, certSubmittedAt: now, creditCode, licenceFileId: file.id })
      .where(eq(users.id, user.id));
    return { state: to };
  });
}

/** Operations: enterprise accounts waiting for review (oldest submission first), or every enterprise account. */
export async function listCertifications(input: Payload<"/sys/ops/certifications/list">, { deps }: SignedInContext) {
  const db = deps.db;
  const where =
    input.status === "open"
      ? and(eq(users.userType, 2), eq(users.certState, CertState.PENDING))
      : and(eq(users.userType, 2), isNotNull(users.companyName));
  const [{ total }] = await db.select({ total: count() }).from(users).where(where);
  const rows = await db
    .select({ user: users, licenceName: files.name })
    .from(users)
    .leftJoin(files, eq(files.id, users.licenceFileId))
    .where(where)
    .orderBy(asc(users.certSubmittedAt), asc(users.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return {
    page: {
      rows: rows.map(({ user: u, licenceName: name }) => ({
        userId: u.id,
        userName: u.userName,
        companyName: u.companyName,
        country: u.country,
        creditCode: u.creditCode,
        checkDigitOk: isChina(u.country) && u.creditCode ? isValidUscc(u.creditCode) : null,
        licenceName: name,
        state: u.certState,
        reason: u.certReason,
        submittedAt: iso(u.certSubmittedAt),
      })),
      total,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    },
  };
}

/** Operations: approve (1 → 10) or reject with a reason (1 → 5); the user is told in the inbox either way. */
export async function reviewCertification(input: Payload<"/sys/ops/certifications/review">, ctx: SignedInContext) {
  const { deps } = ctx;
  const now = deps.now();
  const comments = input.comments?.trim() || undefined;
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(users).where(eq(users.id, input.userId)).for("update");
    if (!row || row.userType !== 2) throw new ApiError(Msg.NOT_FOUND);
    const to = move(row, input.decision, "operator", comments);
    await tx
      .update(users)
      .set({ certState: to, certReason: to === CertState.REJECTED ? comments : null, certDecidedAt: now })
      .where(eq(users.id, row.id));
    await inbox.api.notify(tx, {
      userId: row.id,
      textKey: to === CertState.APPROVED ? "messages.certification.approved" : "messages.certification.rejected",
      params: to === CertState.APPROVED ? { company: row.companyName ?? "" } : { comments: comments ?? "" },
      at: now,
    });
    return { userId: row.id, state: to };
  });
}

/** Operations: the licence an account uploaded. */
export async function certificationLicence(
  input: DownloadInput<"ops-certification-licence">,
  { deps }: SignedInContext,
) {
  const [row] = await deps.db
    .select({ fileId: users.licenceFileId })
    .from(users)
    .where(and(eq(users.id, input.userId), eq(users.userType, 2)));
  if (!row?.fileId) throw new ApiError(Msg.NOT_FOUND);
  return { fileId: row.fileId };
}
