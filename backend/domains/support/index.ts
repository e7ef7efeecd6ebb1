import { downloadHandlersOf, handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { supportJobs } from "./jobs.ts";
import { confirm, subscribe, unsubscribe } from "./handlers/visitor.ts";
import { opsNewsletterList, opsNewsletterSend } from "./handlers/operator.ts";
import { supportUpload } from "./rules.ts";
import { insertTech, listTickets, ticketDetail, userClose, userFile, userReply } from "./handlers/user.ts";
import { opsClose, opsDetail, opsFile, opsList, opsReply } from "./handlers/operator.ts";
import { ticketsWaiting } from "./figures.ts";
import { visitorClose, visitorInsert, visitorReply, visitorTicket } from "./handlers/visitor.ts";

/**
 * Technical support and the newsletter (issue 15; SPEC §1, §2, §5 "Support ticket", §7 insertTech, §9;
 * contract/support.ts; docs/decisions/041): tickets of signed-in users (with a 60 MB attachment streamed and
 * checked by content) and of visitors (support and contact pages, private link), the operations queue with its
 * audited replies and the mail of each, and the newsletter with double opt-in, one-click unsubscribe and issues
 * sent by a background job.
 */
export default defineDomain({
  name: "support",
  handlers: handlersOf({
    "/sys/technicalSupport/insertTech": insertTech,
    "/sys/technicalSupport/list": listTickets,
    "/sys/technicalSupport/detail": ticketDetail,
    "/sys/technicalSupport/reply": userReply,
    "/sys/technicalSupport/close": userClose,
    "/anon/technicalSupport/insertTech": visitorInsert,
    "/anon/technicalSupport/ticket": visitorTicket,
    "/anon/technicalSupport/reply": visitorReply,
    "/anon/technicalSupport/close": visitorClose,
    "/sys/ops/tickets/list": opsList,
    "/sys/ops/tickets/detail": opsDetail,
    "/sys/ops/tickets/reply": opsReply,
    "/sys/ops/tickets/close": opsClose,
    "/anon/newsletter/subscribe": subscribe,
    "/anon/newsletter/confirm": confirm,
    "/anon/newsletter/unsubscribe": unsubscribe,
    "/sys/ops/newsletter/list": opsNewsletterList,
    "/sys/ops/newsletter/send": opsNewsletterSend,
  }),
  jobs: supportJobs,
  uploads: { support: supportUpload },
  downloads: downloadHandlersOf({ "support-attachment": userFile, "ops-ticket-attachment": opsFile }),
  api: {
    /** The operations queue of open tickets (platform dashboard). */
    ticketsWaiting,
  },
});
