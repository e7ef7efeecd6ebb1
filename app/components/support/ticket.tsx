import { useTranslation } from "react-i18next";
import { TicketStatus } from "#contract/support-codes.ts";
import { Badge, type Tone } from "#app/components/Badge.tsx";
import { formatDate, formatSize } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";

const TONE: Record<number, Tone> = {
  [TicketStatus.OPEN]: "wait",
  [TicketStatus.ANSWERED]: "info",
  [TicketStatus.CLOSED]: "off",
};

/** A ticket's status (contract/support-codes.ts TicketStatus) as a pill. */
export function TicketStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("support");
  return (
    <Badge tone={TONE[status] ?? "off"} testId="ticket-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

type Message = { messageId: number; author: "user" | "operator"; content: string; createdAt: string };
type Ticket = {
  ticketId: number;
  question: string;
  status: number;
  createdAt: string;
  contactName: string | null;
  contactEmail: string | null;
  contactMobile: string | null;
  file: { name: string; size: number; mime: string } | null;
  conversation: Message[];
};

/**
 * A ticket's question and conversation, oldest first; `fileHref` downloads its attachment (for its owner and
 * operators only: the page gives it only to them).
 */
export function Conversation({
  ticket,
  language,
  fileHref,
  asker,
  heading = "h2",
}: {
  ticket: Ticket;
  language: Language;
  fileHref: string | null;
  asker: string;
  heading?: "h1" | "h2";
}) {
  const { t } = useTranslation("support");
  const Heading = heading;
  return (
    <section aria-labelledby="conversation-title" className="card space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading id="conversation-title" className="text-lg font-semibold">
          {t("detail.title", { id: ticket.ticketId })}
        </Heading>
        <TicketStatusBadge status={ticket.status} />
      </div>
      <p className="text-xs text-slate-600">
        {t("detail.contact")}:{" "}
        {[ticket.contactName, ticket.contactEmail, ticket.contactMobile].filter(Boolean).join(" · ")}
      </p>
      <ol className="space-y-3">
        <li className="rounded-md bg-slate-50 p-3" data-testid="ticket-message" data-author="user">
          <p className="text-xs text-slate-600">
            {asker} · {formatDate(ticket.createdAt, language, true)}
          </p>
          <p className="mt-1 whitespace-pre-wrap break-words">{ticket.question}</p>
          {ticket.file ? (
            <p className="mt-2 text-sm">
              {t("detail.attachment")}:{" "}
              {fileHref ? (
                <a href={fileHref} className="link" download={ticket.file.name}>
                  {ticket.file.name}
                </a>
              ) : (
                ticket.file.name
              )}{" "}
              ({formatSize(ticket.file.size)})
            </p>
          ) : null}
        </li>
        {ticket.conversation.map((m) => (
          <li
            key={m.messageId}
            data-testid="ticket-message"
            data-author={m.author}
            className={`rounded-md p-3 ${m.author === "operator" ? "ml-6 bg-sky-50" : "bg-slate-50"}`}
          >
            <p className="text-xs text-slate-600">
              {m.author === "operator" ? t("detail.support") : asker} · {formatDate(m.createdAt, language, true)}
            </p>
            <p className="mt-1 whitespace-pre-wrap break-words">{m.content}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
