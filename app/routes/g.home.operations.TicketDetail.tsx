import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { TicketPage } from "#app/components/support/TicketPage.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { closeConfirming, ticketIdParam, ticketPageAction } from "#app/lib/support.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["support"],
  breadcrumb: [
    { key: "menu.operations", to: "/g/home/operations" },
    { key: "titles.supportTickets", to: "/g/home/operations/Tickets" },
    { key: "titles.technicalSupportDetail" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("technicalSupportDetail");

/** Operations: one ticket to read, reply to (the contact gets a mail) and close; every write is audited by the backend. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const ticket = await apiFor(request, viewer).load("/sys/ops/tickets/detail", { ticketId: ticketIdParam(url) });
  return json({ ticket, confirmClose: closeConfirming(url, ticket), language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const ticketId = ticketIdParam(url);
  const api = apiFor(request, viewer);
  return ticketPageAction(request, `${url.pathname}?ticketId=${ticketId}`, {
    reply: (content) => api.call("/sys/ops/tickets/reply", { ticketId, content }),
    close: () => api.call("/sys/ops/tickets/close", { ticketId }),
  });
}

export default function OpsTicketDetail() {
  const { ticket, confirmClose, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("support");
  const location = useLocation();
  return (
    <TicketPage
      ticket={ticket}
      language={language}
      here={`${location.pathname}?ticketId=${ticket.ticketId}`}
      confirmClose={confirmClose}
      lastResult={actionData && "result" in actionData ? actionData.result : undefined}
      header={
        <Link to="/g/home/operations/Tickets" className="link text-sm">
          {t("ops.back")}
        </Link>
      }
      intro={
        <p className="text-sm text-slate-600">
          {t("ops.askedBy")}: {ticket.owner ?? t("ops.visitor")} · {t(`sources.${ticket.source}`)}
        </p>
      }
      asker={ticket.owner ?? ticket.contactName ?? t("ops.visitor")}
      fileHref={ticket.file ? `/g/home/operations/TicketFile?ticketId=${ticket.ticketId}` : null}
      closeQuestion={t("ops.closeQuestion")}
      replyLabel={t("ops.reply")}
      closedNote={t("ops.closedNote")}
    />
  );
}
