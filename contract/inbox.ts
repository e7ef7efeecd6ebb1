import * as z from "zod";
import { type PathSpec } from "./path-spec.ts";
import { messageListSchema, pageRequestSchema } from "./platform.ts";

/** The /vueapi paths of the Message Center (SPEC §2, §3 Message; backend/domains/inbox). */
export const inboxPaths = {
  "/sys/system/message/list": { auth: "user", permission: "read", payload: pageRequestSchema, data: messageListSchema },
  "/sys/system/message/read": {
    auth: "user",
    permission: "read",
    payload: z.object({ messageIds: z.array(z.number().int()).max(200).optional(), all: z.boolean().optional() }),
    data: z.object({ unread: z.number().int() }),
  },
} satisfies Record<string, PathSpec>;
