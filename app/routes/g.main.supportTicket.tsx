import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { TicketPage } from "#app/components/support/TicketPage.tsx";
import { apiFor, getViewer, notFound } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { closeConfirming, ticketPageAction, visitorTicketPage } from "#app/lib/support.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["support"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("supportTicket");

const keyOf = (url: URL) => {
  const key = url.searchParams.get("key") ?? "";
  if (!/^[A-Za-z0-9_-]{32,64}$/.test(key)) throw notFound();
  return key;
};

/**
 * A visitor's ticket by its private link (docs/decisions/041): whoever holds the unguessable key reads the
 * conversation, replies and closes it, without an account. An unknown key is not found.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const url = new URL(request.url);
  const key = keyOf(url);
  const ticket = await apiFor(request, viewer, { portalPage: true }).load("/anon/technicalSupport/ticket", { key });
  return json({
    ticket,
    here: visitorTicketPage(key),
    confirmClose: closeConfirming(url, ticket),
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await getViewer(request);
  const key = keyOf(new URL(request.url));
  const api = apiFor(request, viewer, { portalPage: true });
  return ticketPageAction(request, visitorTicketPage(key), {
    reply: (content) => api.call("/anon/technicalSupport/reply", { key, content }),
    close: () => api.call("/anon/technicalSupport/close", { key }),
  });
}

export default function VisitorTicket() {
  const { ticket, here, confirmClose, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("support");
  return (
    <TicketPage
      className="mx-auto w-full max-w-3xl space-y-4 px-4 py-10"
      ticket={ticket}
      language={language}
      here={here}
      confirmClose={confirmClose}
      lastResult={actionData && "result" in actionData ? actionData.result : undefined}
      header={
        <>
          <h1 className="text-2xl font-semibold">{t("visitor.title")}</h1>
          <p className="text-sm text-slate-600">{t("visitor.keepLink")}</p>
        </>
      }
      asker={ticket.contactName ?? t("detail.you")}
      fileHref={null}
      closeQuestion={t("detail.closeQuestion")}
      replyLabel={t("detail.reply")}
      closedNote={t("detail.closedNote")}
      newTicketTo="/g/main/technicalSupport"
    />
  );
}
