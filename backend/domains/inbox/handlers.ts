import { and, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { MessageStatus } from "#contract/message-codes.ts";
import { MESSAGE_REF_KINDS, type MessageRefKind, type pageRequestSchema } from "#contract/platform.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { messages } from "#backend/db/tables.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { scheduleNoticeMails } from "./mail.ts";

/** SPEC §3 Message: the caller's own messages only, newest first, optionally by status (0 unread, 1 read). */
export async function listMessages(input: z.output<typeof pageRequestSchema>, { deps, user }: SignedInContext) {
  const me = user;
  const { pageSize, pageIndex, condition } = input.page;
  const filters: SQL[] = [eq(messages.userId, me.id)];
  if (condition.status === MessageStatus.UNREAD || condition.status === MessageStatus.READ)
    filters.push(eq(messages.status, condition.status));
  const where = and(...filters);
  const [rows, [{ total }], [{ unread }]] = await Promise.all([
    deps.db
      .select()
      .from(messages)
      .where(where)
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(pageSize)
      .offset((pageIndex - 1) * pageSize),
    deps.db.select({ total: count() }).from(messages).where(where),
    deps.db
      .select({ unread: count() })
      .from(messages)
      .where(and(eq(messages.userId, me.id), eq(messages.status, MessageStatus.UNREAD))),
  ]);
  return {
    page: {
      rows: rows.map((m) => ({
        messageId: m.id,
        status: m.status === MessageStatus.READ ? MessageStatus.READ : MessageStatus.UNREAD,
        textKey: m.textKey,
        params: m.params,
        ref:
          m.refKind && m.refId !== null && (MESSAGE_REF_KINDS as readonly string[]).includes(m.refKind)
            ? { kind: m.refKind, id: m.refId }
            : null,
        createdAt: m.createdAt.toISOString(),
      })),
      total,
      pageIndex,
      pageSize,
    },
    unread,
  };
}

export async function markRead(input: { messageIds?: number[]; all?: boolean }, { deps, user }: SignedInContext) {
  const me = user;
  if (input.all) {
    await deps.db
      .update(messages)
      .set({ status: 1 })
      .where(and(eq(messages.userId, me.id), eq(messages.status, MessageStatus.UNREAD)));
  } else if (input.messageIds && input.messageIds.length > 0) {
    await deps.db
      .update(messages)
      .set({ status: 1 })
      .where(and(eq(messages.userId, me.id), inArray(messages.id, input.messageIds)));
  }
  const [{ unread }] = await deps.db
    .select({ unread: count() })
    .from(messages)
    .where(and(eq(messages.userId, me.id), eq(messages.status, MessageStatus.UNREAD)));
  return { unread };
}

/** One Message Center message: `textKey` is a key of locales/<lang>/messages.json ("messages.…") and `params` its values, translated when the message is shown; `ref` is what it is about (the Message center's link). */
export type Notice = {
  userId: number;
  textKey: string;
  params: Record<string, string>;
  at: Date;
  ref?: { kind: MessageRefKind; id: number };
};

const rowOf = (n: Notice) => ({
  userId: n.userId,
  textKey: n.textKey,
  params: n.params,
  ...(n.ref ? { refKind: n.ref.kind, refId: n.ref.id } : {}),
  createdAt: n.at,
});

/** A message to a user's Message Center (and its mail, ./mail.ts), written inside the caller's transaction (or on `db`). */
export async function notify(tx: Db | Tx, input: Notice) {
  await notifyAll(tx, [input]);
}

/** Several messages at once, in the given order, in one statement inside the caller's transaction; none when `notices` is empty. */
export async function notifyAll(tx: Db | Tx, notices: Notice[]) {
  if (notices.length === 0) return;
  const written = await tx
    .insert(messages)
    .values(notices.map(rowOf))
    .returning({ id: messages.id, textKey: messages.textKey, at: messages.createdAt });
  // A message about the account's money or services is mailed too, by role (./mail.ts): scheduled with the message.
  await scheduleNoticeMails(tx, written);
}
