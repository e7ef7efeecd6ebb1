import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { IpfsServiceStatus } from "#contract/ipfs-codes.ts";
import type { DataOf } from "#contract/paths.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { FormErrors } from "#app/components/form-parts.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import { formatBytes } from "#app/lib/format-number.ts";
import type { Language } from "#app/lib/i18n.ts";
import { serviceHref } from "#app/lib/ipfs-urls.ts";
import { capacityLabel } from "./badges.tsx";
import { newUpgradeHref, upgradeHref } from "./upgrades.tsx";

/** The route's answers (app/routes/g.home.IPFS.Upgrade.tsx): the confirm step without JavaScript, or a refusal. */
export type NewUpgradeAnswer =
  | { kind: "confirm"; toStoreUnit: number; priceDiffCents: number; idempotencyKey: string }
  | { kind: "refused"; messageKey: string; toStoreUnit: number | null };

/** What the route loads. */
export type NewUpgradeData = SerializeFrom<{
  options: DataOf<"/sys/ipfsBusiness/ipfsUpgrade/options">;
  balanceCents: number;
  idempotencyKey: string;
  language: Language;
}>;

/** The body of SPEC §2 IPFS "new upgrade": the current capacity, the larger ones with their price, the balance. */
export function NewUpgradePage({
  options: o,
  balanceCents,
  idempotencyKey,
  language,
  actionData,
}: NewUpgradeData & { actionData: NewUpgradeAnswer | undefined }) {
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
