import { FormProvider, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { upgradeFormSchema, type UpgradeOptions } from "#contract/configuration.ts";
import type { CityNode } from "#contract/platform.ts";
import { NODE_DEFAULTS } from "#contract/service-cost.ts";
import { ErrorList, FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { CellInput, ChooseCell } from "#app/components/services/wizard/nodes.tsx";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

type Quote = { amountCents: number; remainingDays: number; cycleEnd: string };

/**
 * ConfigurationNew's form (docs/decisions/036): the type (node or resource upgrade) and one row per
 * catalogue node, starting from the current configuration; "Calculate the price" asks the backend, which
 * prices the rest of the cycle from the catalogue; "Submit for review" creates the request. Works without
 * JavaScript: both are plain posts and the page answers with what was typed.
 */
export function UpgradeForm({
  options,
  catalogue,
  language,
  result,
  quote,
}: {
  options: UpgradeOptions;
  catalogue: CityNode[];
  language: Language;
  result?: SubmissionResult<string[]>;
  quote: Quote | null;
}) {
  const { t } = useTranslation("configuration");
  const current = new Map(options.current.map((n) => [n.cityNodeId, n]));
  const left = new Map(options.left.map((n) => [n.cityNodeId, n]));
  const [form, fields] = useSchemaForm(upgradeFormSchema, result, {
    id: `upgrade-${options.appId}`,
    shouldValidate: "onBlur",
    defaultValue: {
      appId: String(options.appId),
      upgradeType: "2",
      nodes: catalogue.map((c) => {
        const n = current.get(c.nodeId);
        return n
          ? {
              cityNodeId: String(c.nodeId),
              selected: "on",
              tps: String(n.tps),
              capacityGb: String(n.capacityGb),
              peers: String(n.peers),
            }
          : { cityNodeId: String(c.nodeId), selected: undefined, ...NODE_DEFAULTS };
      }),
    },
  });
  const list = fields.nodes.getFieldList();
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="space-y-4" data-testid="upgrade-form">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name={fields.appId.name} value={String(options.appId)} />
        <fieldset className="card space-y-2">
          <legend className="font-semibold">{t("form.type")}</legend>
          {(["1", "2"] as const).map((v) => (
            <label key={v} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name={fields.upgradeType.name}
                value={v}
                defaultChecked={(fields.upgradeType.initialValue ?? "2") === v}
                className="mt-1"
              />
              <span>
                <span className="font-medium">{t(`types.${v}`)}</span>{" "}
                <span className="block text-slate-700">{t(`typeHints.${v}`)}</span>
              </span>
            </label>
          ))}
          <ErrorList id={fields.upgradeType.errorId} errors={fields.upgradeType.errors} />
        </fieldset>
        <ErrorList id={fields.nodes.errorId} errors={fields.nodes.errors} />
        <div
          className="overflow-x-auto rounded-md border border-slate-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          tabIndex={0}
          role="region"
          aria-label={t("form.nodes")}
        >
          <table className="min-w-full text-sm" data-testid="upgrade-nodes">
            <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2">
                  {t("form.node")}
                </th>
                <th scope="col" className="px-3 py-2">
                  {t("form.current")}
                </th>
                <th scope="col" className="px-3 py-2">
                  {t("form.left")}
                </th>
                <th scope="col" className="px-3 py-2">
                  {t("form.tps")}
                </th>
                <th scope="col" className="px-3 py-2">
                  {t("form.capacityGb")}
                </th>
                <th scope="col" className="px-3 py-2">
                  {t("form.peers")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {list.map((item, i) => {
                const node = catalogue[i];
                const nf = item.getFieldset();
                const name = language === "zh-CN" ? node.nameZh : node.name;
                const now = current.get(node.nodeId);
                const free = left.get(node.nodeId);
                return (
                  <tr key={item.key} data-testid="upgrade-node">
                    <td className="px-3 py-2 align-top">
                      <input type="hidden" name={nf.cityNodeId.name} value={String(node.nodeId)} />
                      <ChooseCell field={nf.selected} label={name} />
                    </td>
                    <td className="px-3 py-2 align-top text-xs text-slate-700">
                      {now ? `${now.tps} TPS · ${now.capacityGb} GB · ${now.peers}` : "—"}
                    </td>
                    <td className="px-3 py-2 align-top text-xs text-slate-700">
                      {free ? t("form.leftLine", { tps: free.tps, gb: free.capacityGb }) : "—"}
                    </td>
                    <td className="px-3 py-2 align-top">
                      <CellInput field={nf.tps} label={`${t("form.tps")} · ${name}`} disabled={false} />
                    </td>
                    <td className="px-3 py-2 align-top">
                      <CellInput field={nf.capacityGb} label={`${t("form.capacityGb")} · ${name}`} disabled={false} />
                    </td>
                    <td className="px-3 py-2 align-top">
                      <CellInput field={nf.peers} label={`${t("form.peers")} · ${name}`} disabled={false} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {quote ? (
          <section
            className="card border-brand-100 bg-brand-50"
            aria-labelledby="quote-title"
            data-testid="upgrade-quote"
            aria-live="polite"
          >
            <h2 id="quote-title" className="font-semibold">
              {t("form.priceTitle")}
            </h2>
            <p className="mt-1 text-lg font-semibold tabular-nums">
              {t("form.price", {
                amount: formatUsd(quote.amountCents, language),
                days: quote.remainingDays,
                end: formatDate(quote.cycleEnd, language, true),
              })}
            </p>
            <p className="mt-1 text-xs text-slate-700">{t("form.priceNote")}</p>
          </section>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <SubmitButton intent="quote" className="btn-secondary">
            {t("form.quote")}
          </SubmitButton>
          <SubmitButton intent="submit" className="btn-primary">
            {t("form.submit")}
          </SubmitButton>
        </div>
      </Form>
    </FormProvider>
  );
}
