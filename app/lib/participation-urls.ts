/** The URLs of the participation pages (docs/decisions/013). */

/** SPEC §2 ParticipatedServices/ServicesDetail of one of the caller's participations. */
export const participatedDetailHref = (v: {
  appId: number;
  appCode: string;
  appJoinAuditId: number;
  auditState: number;
}) =>
  `/g/home/ParticipatedServices/ServicesDetail?${new URLSearchParams({ types: "2", appCode: v.appCode, appId: String(v.appId), auditState: String(v.auditState), appJoinAuditId: String(v.appJoinAuditId), ifJoIn: "1" })}`;
