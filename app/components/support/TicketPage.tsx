import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { ComponentProps, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { TicketStatus } from "#contract/support-codes.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { ReplyForm } from "./ReplyForm.tsx";
import { Conversation } from "./ticket.tsx";

/**
 * One ticket's page (docs/decisions/041), for whoever may answer it: its asker (user or visitor) or an operator.
 * The confirm step to close without JavaScript (`?confirm=close`), the conversation, the reply form and the close
 * button while it is open, and a note once it is closed. The routes differ only in what they pass: the header,
 * whose name stands on the asker's messages, the attachment's link, the wording and where a new ticket starts.
 */
export function TicketPage({
  ticket,
  language,
  here,
  confirmClose,
  lastResult,
  header,
  intro = null,
  heading,
  asker,
  fileHref,
  closeQuestion,
  replyLabel,
  closedNote,
  newTicketTo = null,
  className = "space-y-4",
}: {
  ticket: ComponentProps<typeof Conversation>["ticket"];
  language: ComponentProps<typeof Conversation>["language"];
  /** The page's own URL: the close form and its confirm step post here. */
  here: string;
  confirmClose: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
  header: ReactNode;
  /** Shown between the confirm step and the conversation. */
  intro?: ReactNode;
  heading?: "h1" | "h2";
  asker: string;
  fileHref: string | null;
  closeQuestion: string;
  replyLabel: string;
  closedNote: string;
  /** Where a closed ticket's asker starts a new one (no link when null). */
  newTicketTo?: string | null;
  className?: string;
}) {
  const { t } = useTranslation("support");
  return (
    <div className={className}>
      {header}
      {confirmClose ? (
        <IntentConfirmStep
          id="close-title"
          title={t("detail.closeTitle")}
          question={closeQuestion}
          intent="close"
          fields={{}}
          action={here}
          cancelTo={here}
          confirmLabel={t("detail.close")}
          cancelLabel={t("detail.cancel")}
          danger
        />
      ) : null}
      {intro}
      <Conversation heading={heading} ticket={ticket} language={language} asker={asker} fileHref={fileHref} />
      {ticket.status !== TicketStatus.CLOSED ? (
        <>
          <ReplyForm lastResult={lastResult} label={replyLabel} />
          {confirmClose ? null : (
            <Form method="post" id="close-ticket" action={here} className="flex justify-end">
              <ConfirmSubmit
                formId="close-ticket"
                name="intent"
                value="close"
                label={t("detail.close")}
                title={t("detail.closeTitle")}
                question={closeQuestion}
                confirmLabel={t("detail.close")}
                className="btn-secondary"
              />
            </Form>
          )}
        </>
      ) : newTicketTo ? (
        <p className="card text-sm text-slate-600">
          {closedNote}{" "}
          <Link to={newTicketTo} className="link">
            {t("detail.newTicket")}
          </Link>
        </p>
      ) : (
        <p className="card text-sm text-slate-600">{closedNote}</p>
      )}
    </div>
  );
}
