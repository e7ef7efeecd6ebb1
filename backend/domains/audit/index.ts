import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { exportAudit, listAudit } from "./handlers.ts";

/**
 * The operators' audit log, read side (docs/decisions/022; contract/audit.ts). Entries are written by the
 * router for every operator decision (backend/kit/audit.ts, contract/audit-rules.ts) into the kernel's
 * audit_log table (backend/db/tables.ts), which is append-only.
 */
export default defineDomain({
  name: "audit",
  handlers: handlersOf({
    "/sys/ops/audit/list": listAudit,
    "/sys/ops/audit/export": exportAudit,
  }),
});
