import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { upgradePaySchema } from "#contract/configuration.ts";
import { ConfigList, UpgradeStatusBadge, payStateText } from "#app/components/configuration/upgrades.tsx";
import { CONFIGURATION } from "#app/lib/configuration-urls.ts";
import { ReportPanel } from "#app/components/services/actions.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import { intentOf, parseFormOr400 } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { requiredId } from "#app/lib/params.server.ts";
import { newIdempotencyKey, payRefused } from "#app/lib/payments.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["configuration", "billing", "services"],
  breadcrumb: [
    { key: "menu.permissionedServices" },
    { key: "titles.configuration", to: CONFIGURATION },
    { key: "titles.configurationDetail" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("configurationDetail", (d) => d.upgrade?.upgradeNo);

/**
 * SPEC §2 ConfigurationDetail (`?upgradeId=`): the configuration before and after, the price, the review
 * (comments when not approved), the bill with Pay while it is payable, the deployment and its reasons.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const upgradeId = requiredId(new URL(request.url), "upgradeId");
  const upgrade = await apiFor(request, viewer).load("/sys/configUpgrade/detail", { upgradeId });
  return json({ upgrade, payKey: upgrade.payable ? newIdempotencyKey() : null, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  intentOf(formData, ["pay"] as const);
  const input = parseFormOr400(upgradePaySchema, formData);
  const result = await apiFor(request, viewer).call("/sys/configUpgrade/pay", input);
  if (!result.ok) return payRefused(result);
  return redirectWithFlash(request, `/g/home/ConfigurationDetail?upgradeId=${input.upgradeId}`, {
    kind: "success",
    key: "configuration:flash.paid",
  });
}

export default function ConfigurationDetailPage() {
  const { upgrade: u, payKey, language } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  const { t } = useTranslation(["configuration", "billing", "services"]);
  const row = (label: string, value: React.ReactNode, testId?: string) => (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</dt>
      <dd className="mt-0.5 text-sm" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
  return (
    <div className="space-y-4">
      <Link to={CONFIGURATION} className="link text-sm">
        ← {t("detail.back")}
      </Link>
      <PageHeader
        title={t("detail.title", { number: u.upgradeNo })}
        badges={<UpgradeStatusBadge status={u.status} />}
      />
      <dl className="card grid gap-3 sm:grid-cols-3">
        {row(
          t("detail.service"),
          <Link
            className="link"
            to={`/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${u.appId}&activeNames=history`}
          >
            {u.serviceName}
          </Link>,
        )}
        {row(t("columns.type"), t(`types.${u.upgradeType}`))}
        {row(t("columns.time"), formatDate(u.createdAt, language, true))}
        {row(t("columns.amount"), formatUsd(u.amountCents, language), "upgrade-amount")}
        {row(t("detail.review"), t(`review.${u.reviewState}`), "upgrade-review")}
        {row(t("detail.deployment"), t(`deploy.${u.deployState}`), "upgrade-deploy")}
        {row(t("columns.payState"), payStateText(t, u), "upgrade-pay-state")}
        {row(t("detail.cycleEnd"), formatDate(u.cycleEnd, language, true))}
        {u.deployedAt ? row(t("detail.deployedAt"), formatDate(u.deployedAt, language, true)) : null}
      </dl>
      {u.reviewComments ? (
        <p className="card text-sm" data-testid="review-comments">
          <span className="font-semibold">{t("detail.reviewComments")}:</span> {u.reviewComments}
        </p>
      ) : null}
      {payKey ? (
        <section
          id="pay"
          className="card border-amber-200 bg-amber-50"
          aria-labelledby="pay-title"
          data-testid="upgrade-pay"
        >
          <h2 id="pay-title" className="font-semibold">
            {t("detail.payTitle")}
          </h2>
          <p className="mt-1 text-sm text-slate-700">{t("detail.payBody")}</p>
          {u.billDeadline ? (
            <p className="mt-1 text-sm">
              {t("detail.deadline")}: {formatDate(u.billDeadline, language, true)}
            </p>
          ) : null}
          {refusal && "error" in refusal ? (
            <p
              role={refusal.waiting ? "status" : "alert"}
              className={`mt-2 text-sm ${refusal.waiting ? "font-medium text-amber-800" : "text-red-700"}`}
              data-testid={refusal.waiting ? "sent-to-finance" : undefined}
            >
              {t(refusal.error, refusal.params)}{" "}
              {refusal.recharge ? (
                <Link className="link" to="/g/home/userCenter/MyAccount/Recharge">
                  {t("services:pay.recharge")}
                </Link>
              ) : null}
            </p>
          ) : null}
          <Form method="post" className="mt-3">
            <input type="hidden" name="upgradeId" value={u.upgradeId} />
            <input type="hidden" name="idempotencyKey" value={payKey} />
            <button type="submit" name="intent" value="pay" className="btn-primary">
              {t("detail.pay", { amount: formatUsd(u.amountCents, language) })}
            </button>
          </Form>
        </section>
      ) : null}
      {u.deployReport && !u.deployReport.passed ? (
        <ReportPanel title={t("detail.failed")} report={u.deployReport} />
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <section className="card" aria-labelledby="before-title">
          <h2 id="before-title" className="font-semibold">
            {t("detail.before")}
          </h2>
          <ConfigList nodes={u.before} language={language} testId="config-before" />
        </section>
        <section className="card" aria-labelledby="after-title">
          <h2 id="after-title" className="font-semibold">
            {t("detail.after")}
          </h2>
          <ConfigList nodes={u.after} language={language} testId="config-after" />
        </section>
      </div>
    </div>
  );
}
