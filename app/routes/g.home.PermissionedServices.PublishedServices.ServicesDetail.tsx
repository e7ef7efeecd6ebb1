import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { VerState } from "#contract/service-status.ts";
import { BillPayPanel } from "#app/components/details.tsx";
import { RequestEnablePanel, SuspensionNotice } from "#app/components/services/suspension.tsx";
import { ServiceTabs, tabOf } from "#app/components/services/detail-tabs.tsx";
import { ConfirmPanel, InvitePanel, ReportPanel, ServiceActionLinks } from "#app/components/services/actions.tsx";
import { StatusBadge } from "#app/components/services/badges.tsx";
import { shownActions } from "#app/lib/services-rules.ts";
import { NEW_SERVICES, PUBLISHED } from "#app/lib/services-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { crossChainOf } from "#app/lib/cross-chain.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveParam } from "#app/lib/params.ts";
import { requiredId } from "#app/lib/params.server.ts";
import { newIdempotencyKey } from "#app/lib/payments.server.ts";
import {
  askToLiftSuspension,
  joinRedirect,
  lifecycleAction,
  payPublishBill,
  replyToComment,
  SERVICE_DETAIL_INTENTS,
  withoutPanels,
} from "#app/lib/services.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["services", "configuration", "billing", "crossChain"],
  breadcrumb: [
    { key: "menu.permissionedServices" },
    { key: "menu.publishedServices", to: PUBLISHED },
    { key: "titles.servicesDetail" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("servicesDetail", (d) => d.service?.name);

/**
 * SPEC §2 PublishedServices/ServicesDetail (appId, appVerId, activeNames): one of the caller's services at a
 * version, its tabs as plain links, the §4 actions, the publish bill to pay, failure reasons, comment replies.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const appId = requiredId(url, "appId");
  const appVerId = positiveParam(url.searchParams.get("appVerId")) ?? undefined;
  const tab = tabOf(url.searchParams.get("activeNames"));
  const api = apiFor(request, viewer);
  const service = await api.load("/sys/chainAppInfo/publishedDetail", { appId, appVerId });
  const actions = shownActions(service);
  await joinRedirect(url, api, [service], viewer.language);
  const confirmKind = url.searchParams.get("confirm");
  const confirm: "deactivate" | "unsubscribe" | null =
    (confirmKind === "deactivate" || confirmKind === "unsubscribe") && actions.includes(confirmKind)
      ? confirmKind
      : null;
  // At 40 "Enable" asks operations to lift the suspension, through this confirm page (docs/decisions/015).
  const requestEnable =
    confirmKind === "requestEnable" &&
    service.verState === VerState.DEACTIVATED_BY_OPERATOR &&
    actions.includes("enable");
  let invite: { url: string; expiresAt: string } | null = null;
  if (positiveParam(url.searchParams.get("invite")) === service.appVerId && actions.includes("invite")) {
    const link = await api.load("/sys/chainAppInfo/invite", { appVerId: service.appVerId, language: viewer.language });
    invite = { url: `${url.origin}${link.path}`, expiresAt: link.expiresAt };
  }
  // Paying moves money: the form carries a key issued here, so a double click or a reload pays once.
  const payKey = actions.includes("pay") ? newIdempotencyKey() : null;
  // The cross-chain info tab shows the live state and recent calls (docs/decisions/048); without them, the service's flags.
  const crossChain = tab === "crossChain" ? await crossChainOf(api, service.appId) : null;
  return json({
    service,
    tab,
    confirm,
    requestEnable,
    invite,
    payKey,
    crossChain,
    here: withoutPanels(url),
    origin: url.origin,
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const intent = intentOf(formData, SERVICE_DETAIL_INTENTS);
  const api = apiFor(request, viewer);
  const back = withoutPanels(new URL(request.url));
  switch (intent) {
    case "pay":
      return payPublishBill(request, api, formData, back);
    case "reply":
      return replyToComment(request, api, formData, back);
    case "requestEnable":
      return askToLiftSuspension(request, api, formData, back);
    case "deactivate":
    case "enable":
    case "unsubscribe":
      return lifecycleAction(request, viewer, intent, formData);
  }
}

export default function ServicesDetailPage() {
  const { service, tab, confirm, requestEnable, invite, payKey, crossChain, here, origin, language } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("services");
  const c = service.contents;
  return (
    <div className="space-y-4">
      <Link to={PUBLISHED} className="link text-sm">
        ← {t("detail.back")}
      </Link>
      <PageHeader
        align="start"
        title={
          <>
            {service.name} <span className="text-base font-normal text-slate-500">{service.version}</span>
          </>
        }
        description={
          <p className="flex flex-wrap items-center gap-2">
            <StatusBadge verState={service.verState} />{" "}
            <span>
              {t("detail.appCode")}: <span className="font-mono">{service.appCode}</span>
            </span>
          </p>
        }
        actions={<ServiceActionLinks row={service} here={here} omitDetails layout="inline" />}
      />
      {confirm ? (
        <ConfirmPanel
          kind={confirm}
          row={service}
          cancelTo={here}
          lastResult={
            actionData && "kind" in actionData && actionData.kind === "typedConfirm" ? actionData.result : undefined
          }
        />
      ) : null}
      {requestEnable ? (
        <RequestEnablePanel
          service={service}
          cancelTo={here}
          language={language}
          lastResult={
            actionData && "kind" in actionData && actionData.kind === "requestEnable" ? actionData.result : undefined
          }
        />
      ) : service.verState === VerState.DEACTIVATED_BY_OPERATOR ? (
        <SuspensionNotice service={service} language={language} />
      ) : null}
      {invite ? (
        <InvitePanel
          name={service.name}
          url={invite.url}
          expires={formatDate(invite.expiresAt, language, true)}
          closeTo={here}
        />
      ) : null}
      {payKey && service.bill ? (
        <BillPayPanel
          id="pay"
          bill={service.bill}
          item={{ name: "appVerId", value: service.appVerId }}
          payKey={payKey}
          language={language}
          texts="services:pay"
        />
      ) : null}
      {service.verState === VerState.TEST_FAILED && c.testReport && !c.testReport.passed ? (
        <ReportPanel title={t("detail.testFailed")} report={c.testReport} />
      ) : null}
      {service.verState === VerState.PUBLISH_FAILED && c.deployReport && !c.deployReport.passed ? (
        <ReportPanel title={t("detail.deployFailed")} report={c.deployReport} />
      ) : null}
      {service.verState === VerState.TEST_FAILED || service.verState === VerState.INITIAL_REVIEW_REJECTED ? (
        // The lifecycle lets the publisher edit and resubmit from 11 and 20 too (docs/decisions/010); §4 lists
        // Edit among the list's actions only at 22 and 26, so the way back is offered here, beside the reasons.
        <p className="card flex flex-wrap items-center justify-between gap-3 text-sm" data-testid="resubmit-hint">
          <span>{t("detail.resubmitHint")}</span>
          <Link className="btn-primary" to={`${NEW_SERVICES}?appState=mod2&appId=${service.appId}`}>
            {t("detail.editResubmit")}
          </Link>
        </p>
      ) : null}
      {service.description ? <p className="text-sm text-slate-700">{service.description}</p> : null}
      <ServiceTabs service={service} tab={tab} origin={origin} language={language} crossChain={crossChain} />
    </div>
  );
}
