import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { TicketStatus } from "#contract/support-codes.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { ReplyForm } from "#app/components/support/ReplyForm.tsx";
import { Conversation } from "#app/components/support/ticket.tsx";
import { apiFor, getViewer, notFound, redirectAfter } from "#app/lib/api.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { closeNeedsConfirm, replyToTicket, visitorTicketPage } from "#app/lib/support.server.ts";

export const handle = { i18n: ["support"] };
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
    confirmClose: url.searchParams.get("confirm") === "close" && ticket.status !== TicketStatus.CLOSED,
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await getViewer(request);
  const url = new URL(request.url);
  const key = keyOf(url);
  const api = apiFor(request, viewer, { portalPage: true });
  const formData = await request.formData();
  const here = visitorTicketPage(key);
  switch (intentOf(formData, ["reply", "close"])) {
    case "reply":
      return replyToTicket(
        request,
        formData,
        (content) => api.call("/anon/technicalSupport/reply", { key, content }),
        here,
      );
    case "close":
      return (
        closeNeedsConfirm(formData, url) ??
        redirectAfter(request, await api.call("/anon/technicalSupport/close", { key }), here, "support:detail.closed")
      );
  }
}

export default function VisitorTicket() {
  const { ticket, here, confirmClose, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("support");
  return (
    <div className="mx-auto w-full max-w-3xl space-y-4 px-4 py-10">
      <h1 className="text-2xl font-semibold">{t("visitor.title")}</h1>
      <p className="text-sm text-slate-600">{t("visitor.keepLink")}</p>
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
      <Conversation ticket={ticket} language={language} asker={ticket.contactName ?? t("detail.you")} fileHref={null} />
      {ticket.status !== TicketStatus.CLOSED ? (
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
          <Link to="/g/main/technicalSupport" className="link">
            {t("detail.newTicket")}
          </Link>
        </p>
      )}
    </div>
  );
}
