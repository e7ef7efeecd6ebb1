import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ipfsUpgradeCreateSchema } from "#contract/ipfs.ts";
import { IpfsServiceStatus } from "#contract/ipfs-codes.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { FormErrors } from "#app/components/forms.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { capacityLabel } from "#app/components/ipfs/badges.tsx";
import { formatBytes } from "#app/lib/format-number.ts";
import { IPFS, serviceHref } from "#app/lib/ipfs-urls.ts";
import { newUpgradeHref, upgradeHref } from "#app/components/ipfs/upgrades.tsx";
import { apiFor, failureStatus, requireUser } from "#app/lib/api.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { serviceIdParam } from "#app/lib/ipfs.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { newIdempotencyKey } from "#app/lib/payments.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { requireNoUnpaidBills, unlessRefusedForBills } from "#app/lib/unpaid-guard.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";

export const handle = { i18n: ["ipfs"], breadcrumb: [{ key: "titles.ipfs", to: IPFS }, { key: "titles.ipfsUpgrade" }] };
export const meta = pageTitle("ipfsUpgrade");

type ActionData =
  | { kind: "confirm"; toStoreUnit: number; priceDiffCents: number; idempotencyKey: string }
  | { kind: "refused"; messageKey: string; toStoreUnit: number | null };

/**
 * New upgrade (SPEC §2 IPFS "new upgrade"): the current capacity, a larger one to choose with the price difference
 * for the rest of the paid period, and the balance it is paid from. Paying asks first (a dialog with JavaScript,
 * a confirm step without); unpaid bills block it (§5), and the backend checks every rule again.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const ipfsServiceId = serviceIdParam(request);
  await requireNoUnpaidBills(request, viewer, "ipfsUpgrade");
  const api = apiFor(request, viewer);
  const [options, account] = await Promise.all([
    api.load("/sys/ipfsBusiness/ipfsUpgrade/options", { ipfsServiceId }),
    api.load("/sys/account/summary", {}),
  ]);
  return json({
    options,
    balanceCents: account.balanceCents,
    idempotencyKey: newIdempotencyKey(),
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const ipfsServiceId = serviceIdParam(request);
  await requireNoUnpaidBills(request, viewer, "ipfsUpgrade");
  const formData = await request.formData();
  intentOf(formData, ["upgrade"]);
  const parsed = ipfsUpgradeCreateSchema.safeParse({
    ipfsServiceId,
    toStoreUnit: formData.get("toStoreUnit") ?? undefined,
    idempotencyKey: formData.get("idempotencyKey") ?? undefined,
  });
  if (!parsed.success) {
    const key = parsed.error.issues.some((i) => i.path[0] === "toStoreUnit")
      ? "validation.ipfsUpgradeCapacity"
      : "errors:http.400";
    return json<ActionData>({ kind: "refused", messageKey: key, toStoreUnit: null }, { status: 400 });
  }
  const api = apiFor(request, viewer);
  if (formData.get("confirmed") !== "yes") {
    // Without JavaScript: the confirm step, with the difference as the backend prices it now.
    const options = await api.load("/sys/ipfsBusiness/ipfsUpgrade/options", { ipfsServiceId });
    const chosen = options.options.find((o) => o.storeUnit === parsed.data.toStoreUnit);
    if (!chosen)
      return json<ActionData>(
        { kind: "refused", messageKey: "errors:MSG_45010", toStoreUnit: parsed.data.toStoreUnit },
        { status: 400 },
      );
    return json<ActionData>({
      kind: "confirm",
      toStoreUnit: chosen.storeUnit,
      priceDiffCents: chosen.priceDiffCents,
      idempotencyKey: parsed.data.idempotencyKey,
    });
  }
  const result = await unlessRefusedForBills(
    request,
    await api.call("/sys/ipfsBusiness/ipfsUpgrade/create", parsed.data),
    "ipfsUpgrade",
  );
  if (!result.ok)
    return json<ActionData>(
      { kind: "refused", messageKey: result.messageKey, toStoreUnit: parsed.data.toStoreUnit },
      { status: failureStatus(result) },
    );
  return redirectWithFlash(request, upgradeHref(result.data.ipfsUpgradeId), {
    kind: "success",
    key: "ipfs:upgrade.done",
    params: {
      capacity: capacityLabel(result.data.toStoreUnit),
      price: formatUsd(result.data.priceDiffCents, viewer.language),
    },
  });
}

export default function NewIpfsUpgrade() {
  const { options: o, balanceCents, idempotencyKey, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("ipfs");
  const here = newUpgradeHref(o.ipfsServiceId);
  const [chosen, setChosen] = useState<number | null>(actionData?.toStoreUnit ?? null);
  const picked = o.options.find((x) => x.storeUnit === chosen) ?? null;
  // With JavaScript, nothing chosen keeps the dialog closed and says so, as the server does without it.
  const [missing, setMissing] = useState(false);
  const formId = "ipfs-upgrade";
  if (actionData?.kind === "confirm") {
    return (
      <div className="max-w-2xl space-y-4">
        <PageHeader title={t("upgrade.title", { name: o.name })} />
        <IntentConfirmStep
          id="ipfs-upgrade-confirm"
          title={t("upgrade.confirmTitle")}
          question={t("upgrade.confirmQuestion", {
            from: capacityLabel(o.storeUnit),
            to: capacityLabel(actionData.toStoreUnit),
            price: formatUsd(actionData.priceDiffCents, language),
          })}
          intent="upgrade"
          fields={{ toStoreUnit: actionData.toStoreUnit, idempotencyKey: actionData.idempotencyKey }}
          action={here}
          cancelTo={here}
          confirmLabel={t("upgrade.pay")}
          cancelLabel={t("common:actions.cancel")}
        />
      </div>
    );
  }
  return (
    <div className="max-w-2xl space-y-4">
      <PageHeader title={t("upgrade.title", { name: o.name })} />
      <p className="text-sm text-slate-600">{t("upgrade.intro")}</p>
      <section className="card grid gap-3 sm:grid-cols-3" aria-label={t("upgrade.current")}>
        <p>
          <span className="block text-xs text-slate-600">{t("upgrade.current")}</span>
          <span className="font-medium" data-testid="current-capacity">
            {capacityLabel(o.storeUnit)}
          </span>
        </p>
        <p>
          <span className="block text-xs text-slate-600">{t("upgrade.used")}</span>
          <span className="font-medium">{formatBytes(o.usedBytes)}</span>
        </p>
        <p>
          <span className="block text-xs text-slate-600">{t("upgrade.paidUntil")}</span>
          <span className="font-medium">{formatDate(o.expiresAt, language, true)}</span>
        </p>
      </section>
      {o.openUpgradeId ? (
        <p className="card" data-testid="upgrade-open">
          {t("upgrade.openOne")}{" "}
          <Link className="link" to={upgradeHref(o.openUpgradeId)}>
            {t("upgrade.openLink")}
          </Link>
        </p>
      ) : o.status !== IpfsServiceStatus.RUNNING ? (
        <p className="card">{t("upgrade.notRunning")}</p>
      ) : o.options.length === 0 ? (
        <p className="card">{t("upgrade.largest")}</p>
      ) : (
        <Form method="post" action={here} id={formId} className="card space-y-4">
          {missing ? (
            <FormErrors errors={["validation.ipfsUpgradeCapacity"]} />
          ) : actionData?.kind === "refused" ? (
            <FormErrors errors={[actionData.messageKey]} />
          ) : null}
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          <fieldset>
            <legend className="label">{t("upgrade.choose")}</legend>
            <div className="grid gap-2">
              {o.options.map((x) => (
                <label
                  key={x.storeUnit}
                  className="flex items-start gap-2 rounded-md border border-slate-200 p-2 text-sm"
                >
                  <input
                    type="radio"
                    name="toStoreUnit"
                    value={x.storeUnit}
                    defaultChecked={chosen === x.storeUnit}
                    onChange={() => {
                      setChosen(x.storeUnit);
                      setMissing(false);
                    }}
                    className="mt-0.5 h-4 w-4"
                    data-testid={`upgrade-to-${x.storeUnit}`}
                  />
                  <span>
                    <span className="font-medium">{capacityLabel(x.storeUnit)}</span>
                    {" · "}
                    {t("upgrade.optionPrice", {
                      price: formatUsd(x.priceDiffCents, language),
                      full: formatUsd(x.fullPeriodDiffCents, language),
                    })}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="upgrade-summary">
            {picked ? (
              <p className="font-medium">
                {t("upgrade.youPay", {
                  price: formatUsd(picked.priceDiffCents, language),
                  capacity: capacityLabel(picked.storeUnit),
                })}
              </p>
            ) : (
              <p>{t("upgrade.choosePrice")}</p>
            )}
            <p className="mt-1 text-slate-600">
              {t("upgrade.remaining", { days: o.remainingDays, period: o.periodDays })}
            </p>
            <p className="mt-1 text-slate-600" data-testid="upgrade-balance">
              {t("upgrade.balance", { balance: formatUsd(balanceCents, language) })}
            </p>
            <p className="mt-1 text-slate-600">{t("upgrade.appliesOnSuccess")}</p>
          </div>
          <div className="flex justify-end gap-2">
            <Link to={serviceHref(o.ipfsServiceId)} className="btn-secondary">
              {t("common:actions.cancel")}
            </Link>
            <ConfirmSubmit
              formId={formId}
              name="intent"
              value="upgrade"
              label={t("upgrade.submit")}
              title={t("upgrade.confirmTitle")}
              question={
                picked
                  ? t("upgrade.confirmQuestion", {
                      from: capacityLabel(o.storeUnit),
                      to: capacityLabel(picked.storeUnit),
                      price: formatUsd(picked.priceDiffCents, language),
                    })
                  : t("upgrade.choosePrice")
              }
              confirmLabel={t("upgrade.pay")}
              canOpen={() => {
                setMissing(picked === null);
                return picked !== null;
              }}
            />
          </div>
        </Form>
      )}
    </div>
  );
}
