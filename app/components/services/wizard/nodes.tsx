import { FormProvider, getFormProps, getInputProps, useField } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CityNode } from "#contract/platform.ts";
import { NODE_DEFAULTS, runningTotal, type NodeRowInput } from "#contract/service-cost.ts";
import { nodesFormSchema, type Draft } from "#contract/service-wizard.ts";
import { ErrorList, FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { formatUsd } from "#app/lib/format-number.ts";
import { inLanguage, type Language } from "#app/lib/i18n.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { resultFor, type ActionData } from "#app/lib/wizard-forms.ts";
import { StepNav } from "./steps.tsx";

type FieldName = { name: string; formId: string };

/** A number input in a table cell, labelled for screen readers; disabled while its node is not chosen. */
export function CellInput({ field, label, disabled }: { field: FieldName; label: string; disabled: boolean }) {
  const [meta] = useField<string | undefined>(field.name, { formId: field.formId });
  const props = getInputProps(meta, { type: "number" });
  return (
    <div className="min-w-20">
      <label htmlFor={meta.id} className="sr-only">
        {label}
      </label>
      <input
        {...props}
        key={props.key}
        min={1}
        disabled={disabled}
        className="input w-24 py-1 tabular-nums disabled:bg-slate-100 disabled:text-slate-600"
      />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export function ChooseCell({ field, label }: { field: FieldName; label: string }) {
  const [meta] = useField<string | undefined>(field.name, { formId: field.formId });
  const props = getInputProps(meta, { type: "checkbox" });
  return (
    <label className="flex items-center gap-2 font-medium text-slate-900">
      <input {...props} key={props.key} className="h-4 w-4 rounded border-slate-300 text-brand-600" />
      <span>{label}</span>
    </label>
  );
}

/**
 * Step 5 (docs/decisions/029): one table row per city node with a checkbox; the row's inputs are enabled
 * when the node is chosen and start from NODE_DEFAULTS; prices for the draft's payment cycle; the running
 * total updates as you type with JavaScript, and without it "Recalculate" posts the form and the page
 * answers the same total (nothing is saved). One chosen node shows the single-node risk.
 */
export function NodesStep({
  view,
  catalogue,
  language,
  action,
  actionData,
  backTo,
}: {
  view: Draft;
  catalogue: CityNode[];
  language: Language;
  action: string;
  actionData?: ActionData;
  backTo: string;
}) {
  const { t } = useTranslation("wizard");
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const saved = new Map(view.nodes.map((n) => [n.cityNodeId, n]));
  const [form, fields] = useSchemaForm(nodesFormSchema, resultFor(actionData, "saveNodes"), {
    id: "nodes",
    shouldValidate: "onBlur",
    defaultValue: {
      nodes: catalogue.map((c) => {
        const s = saved.get(c.nodeId);
        return s
          ? {
              cityNodeId: String(c.nodeId),
              selected: "on",
              tps: String(s.tps),
              capacityGb: String(s.capacityGb),
              peers: String(s.peers),
            }
          : { cityNodeId: String(c.nodeId), selected: undefined, ...NODE_DEFAULTS };
      }),
    },
  });
  const cycle = view.basic.paymentCycle === "1" ? 1 : 2;
  // A row just ticked had its inputs disabled when the form read its values: they hold the defaults.
  const rows = ((form.value?.nodes ?? []) as (NodeRowInput | undefined)[]).map((r) =>
    r?.selected === "on"
      ? {
          ...r,
          tps: r.tps ?? NODE_DEFAULTS.tps,
          capacityGb: r.capacityGb ?? NODE_DEFAULTS.capacityGb,
          peers: r.peers ?? NODE_DEFAULTS.peers,
        }
      : r,
  );
  const total = runningTotal(rows, new Map(catalogue.map((c) => [c.nodeId, c])), cycle);
  const usd = (c: number) => formatUsd(c, language);
  const list = fields.nodes.getFieldList();
  return (
    <FormProvider context={form.context}>
      <Form method="post" action={action} {...getFormProps(form)} className="space-y-4">
        <p className="text-sm text-slate-700">{t("nodes.intro")}</p>
        <FormErrors id={form.errorId} errors={form.errors} />
        <ErrorList id={fields.nodes.errorId} errors={fields.nodes.errors} />
        {total.chosen === 1 ? (
          <p
            role="status"
            data-testid="single-node-risk"
            className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
          >
            {t("nodes.risk")}
          </p>
        ) : null}
        <div
          className="overflow-x-auto rounded-md border border-slate-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          tabIndex={0}
          role="region"
          aria-label={t("nodes.tableLabel")}
        >
          <table className="min-w-full text-sm" data-testid="node-table">
            <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2">
                  {t("nodes.node")}
                </th>
                <th scope="col" className="px-3 py-2">
                  {t("nodes.where")}
                </th>
                <th scope="col" className="px-3 py-2">
                  {t(cycle === 1 ? "nodes.pricesYear" : "nodes.pricesMonth")}
                </th>
                <th scope="col" className="px-3 py-2">
                  {t("nodes.tps")}
                </th>
                <th scope="col" className="px-3 py-2">
                  {t("nodes.capacityGb")}
                </th>
                <th scope="col" className="px-3 py-2">
                  {t("nodes.peers")}
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  {t(cycle === 1 ? "nodes.costYear" : "nodes.costMonth")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {list.map((item, i) => {
                const node = catalogue[i];
                const nf = item.getFieldset();
                const name = language === "zh-CN" ? node.nameZh : node.name;
                const chosen = rows[i]?.selected === "on";
                const line = total.lines.get(node.nodeId);
                return (
                  <tr key={item.key} data-testid="city-node" className={chosen ? "bg-brand-50/40" : undefined}>
                    <td className="px-3 py-2 align-top">
                      <input type="hidden" name={nf.cityNodeId.name} value={String(node.nodeId)} />
                      <ChooseCell field={nf.selected} label={name} />
                    </td>
                    <td className="px-3 py-2 align-top text-xs text-slate-700">
                      {inLanguage(node.operator, node.operatorZh, language)} ·{" "}
                      {inLanguage(node.cloudProvider, node.cloudProviderZh, language)}
                      <span className="block">
                        {t("nodes.offers", { tps: node.availableTps, gb: node.capacityGb, peers: node.peers })}
                      </span>
                    </td>
                    <td className="px-3 py-2 align-top text-xs text-slate-700">
                      <span className="block whitespace-nowrap">
                        {t(cycle === 1 ? "nodes.tpsPerYear" : "nodes.tpsPerMonth", {
                          price: usd(cycle === 1 ? node.tpsPricePerYearCents : node.tpsPricePerMonthCents),
                        })}
                      </span>
                      <span className="block whitespace-nowrap">
                        {t("nodes.gbPerMonth", { price: usd(node.capacityPricePerGbMonthCents) })}
                      </span>
                      <span className="block whitespace-nowrap">
                        {t("nodes.trafficPerGb", { price: usd(node.trafficPricePerGbCents) })}
                      </span>
                    </td>
                    <td className="px-3 py-2 align-top">
                      <CellInput field={nf.tps} label={`${t("nodes.tps")} · ${name}`} disabled={!chosen} />
                    </td>
                    <td className="px-3 py-2 align-top">
                      <CellInput
                        field={nf.capacityGb}
                        label={`${t("nodes.capacityGb")} · ${name}`}
                        disabled={!chosen}
                      />
                    </td>
                    <td className="px-3 py-2 align-top">
                      <CellInput field={nf.peers} label={`${t("nodes.peers")} · ${name}`} disabled={!chosen} />
                    </td>
                    <td className="px-3 py-2 text-right align-top tabular-nums" data-testid="node-line">
                      {chosen ? (line === null || line === undefined ? "—" : usd(line)) : ""}
                    </td>
                  </tr>
                );
              })}
            </tbody>
            <tfoot className="border-t border-slate-200 bg-slate-50">
              <tr>
                <th scope="row" colSpan={6} className="px-3 py-2 text-right font-semibold">
                  {t(cycle === 1 ? "nodes.totalYear" : "nodes.totalMonth")}
                </th>
                <td
                  className="px-3 py-2 text-right font-semibold tabular-nums"
                  data-testid="node-total"
                  aria-live="polite"
                >
                  {usd(total.totalCents)}
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
        <p className="text-xs text-slate-700">
          {t("nodes.peersHint")} {total.complete ? "" : t("nodes.incomplete")}{" "}
          {view.basic.freeService ? t("nodes.freeNote") : ""}
        </p>
        <StepNav backTo={backTo}>
          <div className="flex gap-2">
            {hydrated ? null : (
              <button type="submit" name="intent" value="recalculateNodes" formNoValidate className="btn-secondary">
                {t("nodes.recalculate")}
              </button>
            )}
            <SubmitButton intent="saveNodes" className="btn-primary">
              {t("actions.saveContinue")}
            </SubmitButton>
          </div>
        </StepNav>
      </Form>
    </FormProvider>
  );
}
