import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { opsContact, opsDetail, opsList, opsSave, publicPage } from "./handlers.ts";

/**
 * The legal and contact texts (issue 30 item 16; docs/decisions/089; contract/legal.ts): operators write the
 * privacy policy, the privacy statement, the service agreement, the contact page and its addresses in both
 * languages; a page nobody saved shows the product's draft, marked as not reviewed.
 */
export default defineDomain({
  name: "legal",
  handlers: handlersOf({
    "/anon/legal/page": publicPage,
    "/sys/ops/legal/list": opsList,
    "/sys/ops/legal/detail": opsDetail,
    "/sys/ops/legal/save": opsSave,
    "/sys/ops/legal/contact": opsContact,
  }),
});
