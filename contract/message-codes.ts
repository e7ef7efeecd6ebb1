/** The codes of inbox messages (SPEC §3 Message), without Zod, so that browser code can use them. */

/** SPEC §3 Message status: 0 unread, 1 read. */
export const MessageStatus = { UNREAD: 0, READ: 1 } as const;
