/**
 * Participation constants and rules without Zod (contract/participation.ts re-exports them), so pages that
 * need only these do not ship the schema library to the browser.
 */

/** §4 Participation audit. */
export const AuditState = {
  PENDING: 0,
  PUBLISHER_APPROVED: 1,
  PUBLISHER_REJECTED: 2,
  OPERATOR_APPROVED: 3,
  OPERATOR_REJECTED: 4,
  TO_ORDER: 5,
  ORDERED: 10,
  WORK_ORDER_DONE: 13,
  CONFIRMED: 15,
} as const;
export const AUDIT_STATES = [0, 1, 2, 3, 4, 5, 10, 13, 15] as const;

/** §4 "On the participated list": the status a participant sees for one of their participations. */
export const LIST_STATUSES = ["reviewing", "rejected", "toConfirm", "confirmed", "deactivated", "uninstalled"] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];

/**
 * The participated-list status of a participation (docs/decisions/013): the service's own state wins
 * (30/40 deactivated, 35 uninstalled), then a disabled participant is "deactivated", then the audit.
 */
export function listStatusOf(p: { auditState: number; verState: number; disabled: boolean }): ListStatus {
  if (p.verState === 35) return "uninstalled";
  if (p.verState === 30 || p.verState === 40 || p.disabled) return "deactivated";
  if (p.auditState === 2 || p.auditState === 4) return "rejected";
  if (p.auditState === 13) return "toConfirm";
  if (p.auditState === 15) return "confirmed";
  return "reviewing";
}

/** §4 "Participated service": access parameters when the audit is approved and verState is not 30 or 35. */
export function accessAllowed(p: { auditState: number; verState: number; disabled: boolean }): boolean {
  return (p.auditState === 13 || p.auditState === 15) && p.verState !== 30 && p.verState !== 35 && !p.disabled;
}

/**
 * Whether a node order bill has expired unpaid (docs/decisions/013 "Expired orders"): the bill-expiry job
 * marked it (§4 payment status 10), or it is still unpaid or failed (1, 5) and its deadline has passed,
 * before the hourly job came round. Paying such an order re-issues it.
 */
export function orderExpired(bill: { payState: number; deadline: Date | string }, now: Date): boolean {
  if (bill.payState === 10) return true;
  return (bill.payState === 1 || bill.payState === 5) && new Date(bill.deadline).getTime() <= now.getTime();
}

/** §4 "detail unless rejected". */
export const detailHidden = (auditState: number) => auditState === 2 || auditState === 4;

/** §4 Service views: 0 pending review, 2 rejected, 15 participated (the publisher's summary of a request). */
export const CERT_MODES = [1, 2, 3] as const;
export const CERT_PASSWORD_RE = /^[A-Za-z0-9]{6,20}$/;
/** Certificates expiring within this many days are flagged on MyCertificates. */
export const EXPIRY_WARNING_DAYS = 30;
/** SPEC §9: the role list page size. */
export const ROLE_PAGE_SIZE = 999;
