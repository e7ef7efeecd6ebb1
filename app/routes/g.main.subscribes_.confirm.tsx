import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { apiFor, getViewer } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["support"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("subscribes");

/** The confirmation link of the newsletter's mail (double opt-in, one-time): confirmed, or why the link does not work. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!/^[A-Za-z0-9_-]{32,64}$/.test(token))
    return json({ email: null, error: "support:newsletter.linkInvalid" }, { status: 404 });
  const result = await apiFor(request, viewer, { portalPage: true }).call("/anon/newsletter/confirm", { token });
  if (!result.ok) return json({ email: null, error: result.messageKey }, { status: result.status >= 500 ? 502 : 404 });
  return json({ email: result.data.email, error: null });
}

export default function ConfirmSubscription() {
  const { email, error } = useLoaderData<typeof loader>();
  const { t } = useTranslation("support");
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-10">
      <div className="card space-y-3" data-testid="newsletter-confirm">
        <h1 className="text-2xl font-semibold">
          {email ? t("newsletter.confirmedTitle") : t("newsletter.confirmFailedTitle")}
        </h1>
        <p role={error ? "alert" : "status"}>{email ? t("newsletter.confirmed", { email }) : t(error ?? "")}</p>
        <Link to="/g/main/subscribes" className="link">
          {t("newsletter.back")}
        </Link>
      </div>
    </div>
  );
}
