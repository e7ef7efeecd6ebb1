import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { listMessages, markRead, notify, notifyAll } from "./handlers.ts";
import { inboxJobs, messageText } from "./mail.ts";
export type { Notice } from "./handlers.ts";

/** The Message Center (SPEC §2, §3 Message; contract/inbox.ts). Other domains write messages (db/tables.ts `messages`) only through `api.notify` / `api.notifyAll` (docs/decisions/018), which also schedule the mails by role of a message about money or services (./mail.ts, docs/decisions/085). */
export default defineDomain({
  name: "inbox",
  handlers: handlersOf({
    "/sys/system/message/list": listMessages,
    "/sys/system/message/read": markRead,
  }),
  jobs: inboxJobs,
  api: { notify, notifyAll, messageText },
});
