import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ContactAddresses } from "#app/components/legal/ContactAddresses.tsx";
import { TextPage } from "#app/components/TextPage.tsx";
import { VisitorTicketForm } from "#app/components/support/VisitorTicketForm.tsx";
import { apiFor, getViewer } from "#app/lib/api.server.ts";
import { loadCaptcha } from "#app/lib/captcha.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { createVisitorTicket } from "#app/lib/support.server.ts";
import { loadLegalPage } from "#app/lib/legal.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["pages", "legal", "support", "auth"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("contact");

/**
 * The contact page (SPEC §1, §2): how to reach us (the text and addresses operators set, docs/decisions/089), and a
 * form that creates a support ticket (docs/decisions/041).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const [captcha, text] = await Promise.all([
    loadCaptcha(apiFor(request, viewer, { portalPage: true })),
    loadLegalPage(request, viewer, "contact"),
  ]);
  return json({ captcha, text });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await getViewer(request);
  return createVisitorTicket(request, apiFor(request, viewer, { portalPage: true }), "/g/main/contactUs");
}

export default function Page() {
  const { captcha, text } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("support");
  return (
    <>
      <TextPage text={text}>
        <ContactAddresses contact={text.contact} />
      </TextPage>
      <section className="mx-auto max-w-3xl px-4 pb-10" aria-labelledby="contact-form-title">
        <div className="card">
          <h2 id="contact-form-title" className="text-xl font-semibold">
            {t("contact.formTitle")}
          </h2>
          <p className="mb-4 mt-1 text-sm text-slate-600">{t("contact.formIntro")}</p>
          <VisitorTicketForm source="contact" captcha={captcha} lastResult={actionData?.result} />
        </div>
      </section>
    </>
  );
}
