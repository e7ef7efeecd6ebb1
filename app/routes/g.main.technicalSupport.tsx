import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SupportNotice } from "#app/components/support/SupportNotice.tsx";
import { VisitorTicketForm } from "#app/components/support/VisitorTicketForm.tsx";
import { apiFor, getViewer } from "#app/lib/api.server.ts";
import { loadCaptcha } from "#app/lib/captcha.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { createVisitorTicket, noticeNow } from "#app/lib/support.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["support", "auth"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("publicTechnicalSupport");

/**
 * The public technical support page (SPEC §2 "Also titled: technical support"; docs/decisions/041): the support
 * hours, and a question from anyone (contact email or mobile, captcha, address limits). Signed-in users are pointed
 * to their console page, where tickets take attachments and are listed.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  return json({
    captcha: await loadCaptcha(apiFor(request, viewer, { portalPage: true })),
    notice: noticeNow(),
    language: viewer.language,
    signedIn: !!viewer.user,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await getViewer(request);
  return createVisitorTicket(request, apiFor(request, viewer, { portalPage: true }));
}

export default function PublicTechnicalSupport() {
  const { captcha, notice, language, signedIn } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("support");
  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-10">
      <div>
        <h1 className="text-3xl font-semibold text-slate-900">{t("public.title")}</h1>
        <p className="mt-2 text-slate-600">{t("public.intro")}</p>
      </div>
      <SupportNotice notice={notice} language={language} />
      <p className="text-sm">
        {signedIn ? (
          <Link to="/g/home/DeveloperCommunity/TechnicalSupport" className="link">
            {t("public.console")}
          </Link>
        ) : (
          t("public.signInHint")
        )}
      </p>
      <section className="card" aria-labelledby="visitor-form-title">
        <h2 id="visitor-form-title" className="mb-4 text-lg font-semibold">
          {t("public.formTitle")}
        </h2>
        <VisitorTicketForm source="support" captcha={captcha} lastResult={actionData?.result} />
      </section>
    </div>
  );
}
