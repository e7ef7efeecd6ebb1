import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { TicketStatus } from "#contract/support-codes.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { ReplyForm } from "#app/components/support/ReplyForm.tsx";
import { Conversation } from "#app/components/support/ticket.tsx";
import { apiFor, notFound, redirectAfter, requireOperator } from "#app/lib/api.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveId } from "#app/lib/params.ts";
import { closeNeedsConfirm, replyToTicket } from "#app/lib/support.server.ts";

export const handle = {
  i18n: ["support"],
  breadcrumb: [
    { key: "menu.operations", to: "/g/home/operations" },
    { key: "titles.supportTickets", to: "/g/home/operations/Tickets" },
    { key: "titles.technicalSupportDetail" },
  ],
};
export const meta = pageTitle("technicalSupportDetail");

const ticketIdOf = (url: URL) => {
  const id = positiveId(url.searchParams.get("ticketId"));
  if (!id) throw notFound();
  return id;
};

/** Operations: one ticket to read, reply to (the contact gets a mail) and close; every write is audited by the backend. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const ticket = await apiFor(request, viewer).load("/sys/ops/tickets/detail", { ticketId: ticketIdOf(url) });
  return json({
    ticket,
    confirmClose: url.searchParams.get("confirm") === "close" && ticket.status !== TicketStatus.CLOSED,
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const ticketId = ticketIdOf(url);
  const api = apiFor(request, viewer);
  const formData = await request.formData();
  const here = `${url.pathname}?ticketId=${ticketId}`;
  switch (intentOf(formData, ["reply", "close"])) {
    case "reply":
      return replyToTicket(
        request,
        formData,
        (content) => api.call("/sys/ops/tickets/reply", { ticketId, content }),
        here,
      );
    case "close":
      return (
        closeNeedsConfirm(formData, url) ??
        redirectAfter(request, await api.call("/sys/ops/tickets/close", { ticketId }), here, "support:detail.closed")
      );
  }
}

export default function OpsTicketDetail() {
  const { ticket, confirmClose, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("support");
  const location = useLocation();
  const here = `${location.pathname}?ticketId=${ticket.ticketId}`;
  return (
    <div className="space-y-4">
      <Link to="/g/home/operations/Tickets" className="link text-sm">
        {t("ops.back")}
      </Link>
      {confirmClose ? (
        <IntentConfirmStep
          id="close-title"
          title={t("detail.closeTitle")}
          question={t("ops.closeQuestion")}
          intent="close"
          fields={{}}
          action={here}
          cancelTo={here}
          confirmLabel={t("detail.close")}
          cancelLabel={t("detail.cancel")}
          danger
        />
      ) : null}
      <p className="text-sm text-slate-600">
        {t("ops.askedBy")}: {ticket.owner ?? t("ops.visitor")} · {t(`sources.${ticket.source}`)}
      </p>
      <Conversation
        ticket={ticket}
        language={language}
        asker={ticket.owner ?? ticket.contactName ?? t("ops.visitor")}
        fileHref={ticket.file ? `/g/home/operations/TicketFile?ticketId=${ticket.ticketId}` : null}
      />
      {ticket.status !== TicketStatus.CLOSED ? (
        <>
          <ReplyForm
            lastResult={actionData && "result" in actionData ? actionData.result : undefined}
            label={t("ops.reply")}
          />
          {confirmClose ? null : (
            <Form method="post" id="close-ticket" action={here} className="flex justify-end">
              <ConfirmSubmit
                formId="close-ticket"
                name="intent"
                value="close"
                label={t("detail.close")}
                title={t("detail.closeTitle")}
                question={t("ops.closeQuestion")}
                confirmLabel={t("detail.close")}
                className="btn-secondary"
              />
            </Form>
          )}
        </>
      ) : (
        <p className="card text-sm text-slate-600">{t("ops.closedNote")}</p>
      )}
    </div>
  );
}
