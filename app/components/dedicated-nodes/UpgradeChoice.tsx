import { Form } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { FormErrors } from "#app/components/form-parts.tsx";
import { formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";

export type Choice = { value: string; label: string; priceDiffCents: number; fullPeriodDiffCents: number };

/**
 * One kind of upgrade (node count, host configuration or data capacity): the current value, the values it may
 * move to with the difference due now, and Pay, which asks first (a dialog with JavaScript, the server's confirm
 * step without). A plain POST of intent=upgrade with updateType, toValue and the idempotency key.
 */
export function UpgradeChoice({
  updateType,
  title,
  current,
  choices,
  action,
  idempotencyKey,
  error,
  language,
}: {
  updateType: number;
  title: string;
  current: string;
  choices: Choice[];
  action: string;
  idempotencyKey: string;
  error: string | null;
  language: Language;
}) {
  const { t } = useTranslation(["dedicatedNodes", "dedicatedNodeRules"]);
  const [picked, setPicked] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const chosen = choices.find((c) => c.value === picked) ?? null;
  const formId = `prn-upgrade-${updateType}`;
  return (
    <Form method="post" action={action} id={formId} className="card space-y-3" data-testid={formId}>
      <h2 className="font-semibold">{title}</h2>
      <p className="text-sm">
        <span className="text-slate-600">{t("upgrade.current")}: </span>
        <span className="font-medium" data-testid={`${formId}-current`}>
          {current}
        </span>
      </p>
      {missing ? (
        <FormErrors errors={["dedicatedNodes:upgrade.chooseOne"]} />
      ) : error ? (
        <FormErrors errors={[error]} />
      ) : null}
      <input type="hidden" name="updateType" value={updateType} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      {choices.length === 0 ? (
        <p className="text-sm text-slate-600">{t("upgrade.noChoice")}</p>
      ) : (
        <fieldset>
          <legend className="label">{t("upgrade.newValue")}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {choices.map((c) => (
              <label key={c.value} className="flex items-start gap-2 rounded-md border border-slate-200 p-2 text-sm">
                <input
                  type="radio"
                  name="toValue"
                  value={c.value}
                  onChange={() => {
                    setPicked(c.value);
                    setMissing(false);
                  }}
                  className="mt-0.5 h-4 w-4"
                  data-testid={`${formId}-to-${c.value}`}
                />
                <span>
                  <span className="font-medium">{c.label}</span>
                  <span className="block text-xs text-slate-600">
                    {t("upgrade.optionPrice", {
                      price: formatUsd(c.priceDiffCents, language),
                      full: formatUsd(c.fullPeriodDiffCents, language),
                    })}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {choices.length > 0 ? (
        <div className="flex justify-end">
          <ConfirmSubmit
            formId={formId}
            name="intent"
            value="upgrade"
            label={t("upgrade.submit")}
            title={t("upgrade.confirmTitle")}
            question={
              chosen
                ? t("upgrade.confirmQuestion", {
                    type: title,
                    from: current,
                    to: chosen.label,
                    price: formatUsd(chosen.priceDiffCents, language),
                  })
                : t("upgrade.noQuote")
            }
            confirmLabel={t("upgrade.pay")}
            canOpen={() => {
              setMissing(chosen === null);
              return chosen !== null;
            }}
          />
        </div>
      ) : null}
    </Form>
  );
}
