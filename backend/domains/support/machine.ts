import { Msg } from "#contract/messages.ts";
import { defineMachine } from "#contract/state-machine.ts";
import { TicketStatus, type TicketStatusCode } from "#contract/support-codes.ts";

/**
 * A support ticket (issue 15 "open, answered, closed"; SPEC §4 names no statuses for tickets, docs/decisions/041
 * is the reading). The asker (actor "user": the signed-in owner, or a visitor holding the private link) and
 * operators write to the conversation:
 *
 * | event | actor    | from           | to       |                                                  |
 * |-------|----------|----------------|----------|--------------------------------------------------|
 * | reply | operator | open, answered | answered | the contact gets a mail with the conversation's link |
 * | reply | user     | open, answered | open     | an answered ticket waits for support again       |
 * | close | user     | open, answered | closed   |                                                  |
 * | close | operator | open, answered | closed   |                                                  |
 *
 * Closed is final: a closed ticket takes no reply (the asker opens a new one).
 */
export type TicketEvent = "reply" | "close";
export type TicketActor = "user" | "operator";
const S = TicketStatus;

export const ticketMachine = defineMachine<TicketStatusCode, TicketEvent, TicketActor, { comments?: string | null }>({
  name: "Support ticket",
  states: [S.OPEN, S.ANSWERED, S.CLOSED],
  actors: ["user", "operator"],
  rules: [
    { event: "reply", actor: "operator", from: [S.OPEN, S.ANSWERED], to: S.ANSWERED },
    { event: "reply", actor: "user", from: [S.OPEN, S.ANSWERED], to: S.OPEN },
    { event: "close", actor: "user", from: [S.OPEN, S.ANSWERED], to: S.CLOSED },
    { event: "close", actor: "operator", from: [S.OPEN, S.ANSWERED], to: S.CLOSED },
  ],
  refusals: {
    notAvailable: Msg.TICKET_NOT_AVAILABLE,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.INVALID_PARAMS,
  },
});
