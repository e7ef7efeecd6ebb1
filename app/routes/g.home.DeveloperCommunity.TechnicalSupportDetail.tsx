import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { TicketStatus } from "#contract/support-codes.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { ReplyForm } from "#app/components/support/ReplyForm.tsx";
import { Conversation } from "#app/components/support/ticket.tsx";
import { apiFor, notFound, redirectAfter, requireUser } from "#app/lib/api.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveId } from "#app/lib/params.ts";
import { closeNeedsConfirm, replyToTicket } from "#app/lib/support.server.ts";

export const handle = {
  i18n: ["support"],
  breadcrumb: [
    { key: "menu.developerCommunity" },
    { key: "menu.technicalSupport", to: "/g/home/DeveloperCommunity/TechnicalSupport" },
    { key: "titles.technicalSupportDetail" },
  ],
};
export const meta = pageTitle("technicalSupportDetail");

const LIST = "/g/home/DeveloperCommunity/TechnicalSupport";
const ticketIdOf = (url: URL) => {
  const id = positiveId(url.searchParams.get("ticketId"));
  if (!id) throw notFound();
  return id;
};

/** One of my tickets with its conversation (docs/decisions/041): I reply (an answered ticket is open again) or close it. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const ticket = await apiFor(request, viewer).load("/sys/technicalSupport/detail", { ticketId: ticketIdOf(url) });
  return json({
    ticket,
    confirmClose: url.searchParams.get("confirm") === "close" && ticket.status !== TicketStatus.CLOSED,
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
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
        (content) => api.call("/sys/technicalSupport/reply", { ticketId, content }),
        here,
      );
    case "close":
      return (
        closeNeedsConfirm(formData, url) ??
        redirectAfter(
          request,
          await api.call("/sys/technicalSupport/close", { ticketId }),
          here,
          "support:detail.closed",
        )
      );
  }
}

export default function TechnicalSupportDetail() {
  const { ticket, confirmClose, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("support");
  const location = useLocation();
  const here = `${location.pathname}?ticketId=${ticket.ticketId}`;
  const open = ticket.status !== TicketStatus.CLOSED;
  return (
    <div className="space-y-4">
      <Link to={LIST} className="link text-sm">
        {t("detail.back")}
      </Link>
      {confirmClose ? (
        <IntentConfirmStep
          id="close-title"
          title={t("detail.closeTitle")}
          question={t("detail.closeQuestion")}
          intent="close"
          fields={{}}
          action={here}
          cancelTo={here}
          confirmLabel={t("detail.close")}
          cancelLabel={t("detail.cancel")}
          danger
        />
      ) : null}
      <Conversation
        heading="h1"
        ticket={ticket}
        language={language}
        asker={t("detail.you")}
        fileHref={ticket.file ? `/g/home/DeveloperCommunity/TechnicalSupportFile?ticketId=${ticket.ticketId}` : null}
      />
      {open ? (
        <>
          <ReplyForm
            lastResult={actionData && "result" in actionData ? actionData.result : undefined}
            label={t("detail.reply")}
          />
          {confirmClose ? null : (
            <Form method="post" id="close-ticket" action={here} className="flex justify-end">
              <ConfirmSubmit
                formId="close-ticket"
                name="intent"
                value="close"
                label={t("detail.close")}
                title={t("detail.closeTitle")}
                question={t("detail.closeQuestion")}
                confirmLabel={t("detail.close")}
                className="btn-secondary"
              />
            </Form>
          )}
        </>
      ) : (
        <p className="card text-sm text-slate-600">
          {t("detail.closedNote")}{" "}
          <Link to={LIST} className="link">
            {t("detail.newTicket")}
          </Link>
        </p>
      )}
    </div>
  );
}
