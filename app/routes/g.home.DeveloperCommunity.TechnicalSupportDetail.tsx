import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { TicketPage } from "#app/components/support/TicketPage.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { closeConfirming, ticketIdParam, ticketPageAction } from "#app/lib/support.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["support"],
  breadcrumb: [
    { key: "menu.developerCommunity" },
    { key: "menu.technicalSupport", to: "/g/home/DeveloperCommunity/TechnicalSupport" },
    { key: "titles.technicalSupportDetail" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("technicalSupportDetail");

const LIST = "/g/home/DeveloperCommunity/TechnicalSupport";

/** One of my tickets with its conversation (docs/decisions/041): I reply (an answered ticket is open again) or close it. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const ticket = await apiFor(request, viewer).load("/sys/technicalSupport/detail", { ticketId: ticketIdParam(url) });
  return json({ ticket, confirmClose: closeConfirming(url, ticket), language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const ticketId = ticketIdParam(url);
  const api = apiFor(request, viewer);
  return ticketPageAction(request, `${url.pathname}?ticketId=${ticketId}`, {
    reply: (content) => api.call("/sys/technicalSupport/reply", { ticketId, content }),
    close: () => api.call("/sys/technicalSupport/close", { ticketId }),
  });
}

export default function TechnicalSupportDetail() {
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
        <Link to={LIST} className="link text-sm">
          {t("detail.back")}
        </Link>
      }
      heading="h1"
      asker={t("detail.you")}
      fileHref={ticket.file ? `/g/home/DeveloperCommunity/TechnicalSupportFile?ticketId=${ticket.ticketId}` : null}
      closeQuestion={t("detail.closeQuestion")}
      replyLabel={t("detail.reply")}
      closedNote={t("detail.closedNote")}
      newTicketTo={LIST}
    />
  );
}
