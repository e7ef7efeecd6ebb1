import { json, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormErrors } from "#app/components/form-parts.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { apiFor, failureResponse, requireUser } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveParam } from "#app/lib/params.ts";
import { ticketCookieHeader } from "#app/lib/participation.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["participation"],
  breadcrumb: [{ key: "menu.participatedServices", to: "/g/home/ParticipatedServices" }, { key: "titles.joinService" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("joinService");

/**
 * SPEC §2 ParticipatedServices/JOIN: the short keys a (appId), b (appCode), c (token), d (expiry), e (language)
 * of an invitation or store link (no c: a public service, token = appCode). Calls applyJoinApp (§7) and
 * redirects to ServicesDetail with types, appCode, appId, auditState, appJoinAuditId; an invalid link shows
 * §8 "Tokens invalid".
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const q = new URL(request.url).searchParams;
  const appId = positiveParam(q.get("a"));
  const appCode = q.get("b") ?? "";
  const token = q.get("c") || appCode;
  if (!appId || !token) return json({ messageKey: "errors:MSG_39001" }, { status: 400 });
  const result = await apiFor(request, viewer).call("/sys/chainAppInfo/applyJoinApp", {
    appId,
    token: token.slice(0, 100),
    ...(q.get("c") ? { expiry: (q.get("d") ?? "").slice(0, 20), language: (q.get("e") ?? "").slice(0, 10) } : {}),
  });
  if (!result.ok) {
    if (result.status >= 500) throw failureResponse(result);
    return json({ messageKey: result.messageKey }, { status: 400 });
  }
  const d = result.data;
  const target = new URLSearchParams({
    types: d.participatedYn ? "2" : "1",
    appCode: d.appCode,
    appId: String(appId),
    auditState: d.auditState === null ? "" : String(d.auditState),
    appJoinAuditId: d.appJoinAuditId === null ? "" : String(d.appJoinAuditId),
    ifJoIn: String(d.participatedYn),
  });
  const headers = new Headers();
  if (d.ticket) headers.append("Set-Cookie", await ticketCookieHeader(appId, d.ticket));
  return redirect(`/g/home/ParticipatedServices/ServicesDetail?${target}`, { headers });
}

export default function Join() {
  const { messageKey } = useLoaderData<typeof loader>();
  const { t } = useTranslation("participation");
  return (
    <div className="card max-w-lg space-y-3" data-testid="join-invalid">
      <PageHeader title={t("join.invalid")} titleClassName="text-lg font-semibold" />
      <FormErrors errors={[messageKey]} />
      <Link to="/g/home/ParticipatedServices" className="btn-secondary inline-block">
        {t("join.backToList")}
      </Link>
    </div>
  );
}
