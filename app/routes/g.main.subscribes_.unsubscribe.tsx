import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { apiFor, getViewer } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["support"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("subscribes");

/**
 * The unsubscribe link of every newsletter mail (docs/decisions/041): one click, no login; opening it again
 * answers the same. Subscribing again goes through the confirmation mail.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!/^[A-Za-z0-9_-]{32,64}$/.test(token))
    return json({ email: null, error: "support:newsletter.linkInvalid" }, { status: 404 });
  const result = await apiFor(request, viewer, { portalPage: true }).call("/anon/newsletter/unsubscribe", { token });
  if (!result.ok) return json({ email: null, error: result.messageKey }, { status: result.status >= 500 ? 502 : 404 });
  return json({ email: result.data.email, error: null });
}

export default function Unsubscribe() {
  const { email, error } = useLoaderData<typeof loader>();
  const { t } = useTranslation("support");
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-10">
      <div className="card space-y-3" data-testid="newsletter-unsubscribe">
        <h1 className="text-2xl font-semibold">
          {email ? t("newsletter.unsubscribedTitle") : t("newsletter.confirmFailedTitle")}
        </h1>
        <p role={error ? "alert" : "status"}>{email ? t("newsletter.unsubscribed", { email }) : t(error ?? "")}</p>
        <Link to="/g/main/subscribes" className="link">
          {t("newsletter.again")}
        </Link>
      </div>
    </div>
  );
}
