import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { prnUpgradeCreateSchema } from "#contract/dedicated-nodes.ts";
import { PrnStatus } from "#contract/dedicated-nodes-codes.ts";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { UpgradeChoice } from "#app/components/dedicated-nodes/UpgradeChoice.tsx";
import { formatBytes } from "#app/lib/format-number.ts";
import { PRN, configDetailHref, configHref, configNewHref } from "#app/lib/dedicated-nodes-urls.ts";
import { useUpgradeValue } from "#app/components/dedicated-nodes/upgrades.tsx";
import { apiFor, failureStatus, requireUser } from "#app/lib/api.server.ts";
import { canonicalName, prnProjectIdParam } from "#app/lib/dedicated-nodes.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { newIdempotencyKey } from "#app/lib/payments.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { requireNoUnpaidBills, unlessRefusedForBills } from "#app/lib/unpaid-guard.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["dedicatedNodes", "dedicatedNodeRules"],
  breadcrumb: [{ key: "titles.privatedNodes", to: PRN }, { key: "titles.privatedNodesConfigNew" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("privatedNodesConfigNew", (d: { options?: { name: string } }) => d.options?.name);

type ActionData =
  | {
      kind: "confirm";
      updateType: number;
      fromValue: string;
      toValue: string;
      priceDiffCents: number;
      idempotencyKey: string;
    }
  | { kind: "refused"; messageKey: string; updateType: number | null };

/**
 * A new upgrade of a project (SPEC §2 PrivatedNodesConfigNew, §4 dedicated node upgrade): more peers, another
 * host configuration or data capacity, each value with the difference due for the rest of the paid period;
 * paying asks first. Unpaid dedicated-node bills block it (§6, payType 2); the backend checks every rule again.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const prnProjectId = prnProjectIdParam(request);
  await requireNoUnpaidBills(request, viewer, "dedicatedNode");
  const api = apiFor(request, viewer);
  const [options, catalogue, account] = await Promise.all([
    api.load("/sys/prn/upgrade/options", { prnProjectId }),
    api.load("/sys/prn/options", {}),
    api.load("/sys/account/summary", {}),
  ]);
  canonicalName(request, options.name, configNewHref(prnProjectId, options.name));
  return json({
    options,
    hostConfigs: catalogue.hostConfigs,
    balanceCents: account.balanceCents,
    idempotencyKey: newIdempotencyKey(),
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const prnProjectId = prnProjectIdParam(request);
  await requireNoUnpaidBills(request, viewer, "dedicatedNode");
  const formData = await request.formData();
  intentOf(formData, ["upgrade"]);
  const parsed = prnUpgradeCreateSchema.safeParse({
    prnProjectId,
    updateType: formData.get("updateType") ?? undefined,
    toValue: formData.get("toValue") ?? undefined,
    idempotencyKey: formData.get("idempotencyKey") ?? undefined,
  });
  const updateType = Number(formData.get("updateType")) || null;
  if (!parsed.success) {
    const key = parsed.error.issues.some((i) => i.path[0] === "toValue")
      ? "dedicatedNodes:upgrade.chooseOne"
      : "errors:http.400";
    return json<ActionData>({ kind: "refused", messageKey: key, updateType }, { status: 400 });
  }
  const api = apiFor(request, viewer);
  if (formData.get("confirmed") !== "yes") {
    // Without JavaScript: the confirm step, with the difference as the backend prices it now.
    const { idempotencyKey: _key, ...quotePayload } = parsed.data;
    const quote = await api.call("/sys/prn/upgrade/quote", quotePayload);
    if (!quote.ok)
      return json<ActionData>(
        { kind: "refused", messageKey: quote.messageKey, updateType },
        { status: failureStatus(quote) },
      );
    return json<ActionData>({
      kind: "confirm",
      updateType: quote.data.updateType,
      fromValue: quote.data.fromValue,
      toValue: quote.data.toValue,
      priceDiffCents: quote.data.priceDiffCents,
      idempotencyKey: parsed.data.idempotencyKey,
    });
  }
  const result = await unlessRefusedForBills(
    request,
    await api.call("/sys/prn/upgrade/create", parsed.data),
    "dedicatedNode",
  );
  if (!result.ok)
    return json<ActionData>(
      { kind: "refused", messageKey: result.messageKey, updateType },
      { status: failureStatus(result) },
    );
  const u = result.data;
  return redirectWithFlash(request, configDetailHref(u.prnProjectUpdateId, u.updateType, u.projectName), {
    kind: "success",
    key: "dedicatedNodes:upgrade.done",
    params: { price: formatUsd(u.priceDiffCents, viewer.language) },
  });
}

export default function NewDedicatedNodeUpgrade() {
  const { options: o, hostConfigs, balanceCents, idempotencyKey, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation(["dedicatedNodes", "dedicatedNodeRules"]);
  const valueOf = useUpgradeValue();
  const here = configNewHref(o.prnProjectId, o.name);
  const back = configHref(o.prnProjectId, o.name);
  if (actionData?.kind === "confirm") {
    const a = actionData;
    return (
      <div className="max-w-2xl space-y-4">
        <PageHeader title={t("upgrade.title", { name: o.name })} />
        <IntentConfirmStep
          id="prn-upgrade-confirm"
          title={t("upgrade.confirmTitle")}
          question={t("upgrade.confirmQuestion", {
            type: t(`updateType.${a.updateType}`),
            from: valueOf(a.updateType, a.fromValue, hostConfigs),
            to: valueOf(a.updateType, a.toValue, hostConfigs),
            price: formatUsd(a.priceDiffCents, language),
          })}
          intent="upgrade"
          fields={{ updateType: a.updateType, toValue: a.toValue, idempotencyKey: a.idempotencyKey }}
          action={here}
          cancelTo={here}
          confirmLabel={t("upgrade.pay")}
          cancelLabel={t("common:actions.cancel")}
        />
      </div>
    );
  }
  const refused = actionData?.kind === "refused" ? actionData : null;
  const choices = (type: number, list: { value: string; priceDiffCents: number; fullPeriodDiffCents: number }[]) =>
    list.map((c) => ({ ...c, label: valueOf(type, c.value, hostConfigs) }));
  const common = { action: here, idempotencyKey, language };
  const errorOf = (type: number) =>
    refused && (refused.updateType === type || refused.updateType === null) ? refused.messageKey : null;
  return (
    <div className="max-w-3xl space-y-4">
      <PageHeader
        title={t("upgrade.title", { name: o.name })}
        actions={
          <>
            <Link className="btn-secondary" to={back}>
              {t("upgrade.back")}
            </Link>
          </>
        }
      />
      <p className="text-sm text-slate-600">{t("upgrade.intro")}</p>
      <section className="card grid gap-3 text-sm sm:grid-cols-3">
        <p>
          <span className="block text-xs text-slate-600">{t("project.periodEnd")}</span>
          <span className="font-medium">{formatDate(o.periodEnd, language, true)}</span>
        </p>
        <p>
          <span className="block text-xs text-slate-600">{t("upgrade.remaining")}</span>
          <span className="font-medium">{t("upgrade.days", { days: o.remainingDays, period: o.periodDays })}</span>
        </p>
        <p>
          <span className="block text-xs text-slate-600">{t("upgrade.used")}</span>
          <span className="font-medium">{formatBytes(o.usedBytes)}</span>
        </p>
        <p className="sm:col-span-3 text-slate-600" data-testid="upgrade-balance">
          {t("upgrade.balance", { balance: formatUsd(balanceCents, language) })}
        </p>
      </section>
      {o.openUpgradeId ? (
        <p className="card" data-testid="upgrade-open">
          {t("upgrade.openOne")}{" "}
          <Link className="link" to={configDetailHref(o.openUpgradeId, 1, o.name)}>
            {t("upgrade.openLink")}
          </Link>
        </p>
      ) : o.status !== PrnStatus.RUNNING ? (
        <p className="card">{t("config.notRunning")}</p>
      ) : (
        <>
          <UpgradeChoice
            updateType={1}
            title={t("updateType.1")}
            current={valueOf(1, String(o.nodeCount))}
            choices={choices(1, o.nodeCounts)}
            error={errorOf(1)}
            {...common}
          />
          <UpgradeChoice
            updateType={2}
            title={t("updateType.2")}
            current={valueOf(2, o.hostConfig, hostConfigs)}
            choices={choices(2, o.hostConfigs)}
            error={errorOf(2)}
            {...common}
          />
          <UpgradeChoice
            updateType={3}
            title={t("updateType.3")}
            current={valueOf(3, String(o.dataCapacityGb))}
            choices={choices(3, o.dataCapacities)}
            error={errorOf(3)}
            {...common}
          />
        </>
      )}
    </div>
  );
}
