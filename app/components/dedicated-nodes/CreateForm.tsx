import {
  FormProvider,
  getFormProps,
  getInputProps,
  getSelectProps,
  useField,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { Form, Link, useFetcher } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { prnCreateSchema, type PrnOptions } from "#contract/dedicated-nodes.ts";
import { RadioGroupField, TextField } from "#app/components/forms.tsx";
import { ErrorList, FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { inLanguage } from "#app/components/details.tsx";
import { formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PRN } from "#app/lib/dedicated-nodes-urls.ts";

export type Quote = { monthCents: number; yearCents: number; cycle: number; priceCents: number; periodDays: number };
const QUOTED = ["nodeCount", "hostConfig", "dataCapacityGb", "cycle"] as const;

/**
 * The create form of a dedicated-node project (SPEC §3 fields, §5 rules): one Conform form on
 * prnCreateSchema. "Show the price" posts the form with intent=quote (no validation of the other fields) and
 * the page answers with the quote and every field kept; with JavaScript the price follows each change of the
 * configuration through a fetcher. Consensus options follow the framework (all, grouped, without JavaScript),
 * regions the cloud.
 */
export function CreateForm({
  options: o,
  lastResult,
  quote: posted,
  balanceCents,
  idempotencyKey,
  language,
}: {
  options: PrnOptions;
  lastResult: SubmissionResult<string[]> | null | undefined;
  quote: Quote | null;
  balanceCents: number;
  idempotencyKey: string;
  language: Language;
}) {
  const { t } = useTranslation(["dedicatedNodes", "dedicatedNodeRules"]);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [form, fields] = useSchemaForm(prnCreateSchema, lastResult, {
    id: "new-prn",
    defaultValue: {
      idempotencyKey,
      framework: o.frameworks[0]?.framework,
      cloud: o.clouds.length === 1 ? o.clouds[0].cloud : undefined,
      nodeCount: String(o.peersMin),
      hostConfig: o.hostConfigs[0]?.code,
      dataCapacityGb: String(o.dataCapacities[0]?.gb ?? ""),
      cycle: "2",
    },
  });
  const fetcher = useFetcher<{ quote?: Quote | null }>();
  const value = form.value ?? {};
  const quoteKey = QUOTED.map((k) => String(value[k] ?? "")).join("|");
  useEffect(() => {
    if (!hydrated) return;
    const body = new FormData();
    body.set("intent", "quote");
    for (const k of QUOTED) body.set(k, String(value[k] ?? ""));
    fetcher.submit(body, { method: "post" });
    // Only a change of the priced fields asks again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [quoteKey, hydrated]);
  const quote = (hydrated && fetcher.data ? fetcher.data.quote : posted) ?? null;
  const framework = o.frameworks.find((f) => f.framework === value.framework);
  const cloud = o.clouds.find((c) => c.cloud === value.cloud);
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input {...getInputProps(fields.idempotencyKey, { type: "hidden" })} key={fields.idempotencyKey.key} />
        <TextField field={fields.name} label={t("project.name")} hint={t("create.nameHint")} autoComplete="off" />
        <div className="grid gap-4 sm:grid-cols-2">
          <GroupedSelect
            field={fields.framework}
            label={t("project.framework")}
            placeholder={t("create.chooseFramework")}
            groups={[{ label: null, options: o.frameworks.map((f) => ({ value: f.framework, label: f.label })) }]}
          />
          <GroupedSelect
            field={fields.consensus}
            label={t("project.consensus")}
            placeholder={t("create.chooseConsensus")}
            hint={hydrated ? undefined : t("create.consensusHint")}
            groups={
              hydrated
                ? [
                    {
                      label: null,
                      options: (framework?.consensus ?? []).map((c) => ({
                        value: c,
                        label: t(`consensus.${c}`, { defaultValue: c }),
                      })),
                    },
                  ]
                : o.frameworks.map((f) => ({
                    label: f.label,
                    options: f.consensus.map((c) => ({ value: c, label: t(`consensus.${c}`, { defaultValue: c }) })),
                  }))
            }
          />
          <GroupedSelect
            field={fields.cloud}
            label={t("project.cloud")}
            placeholder={t("project.cloud")}
            groups={[
              {
                label: null,
                options: o.clouds.map((c) => ({ value: c.cloud, label: inLanguage(c.cloud, c.cloudZh, language) })),
              },
            ]}
          />
          <GroupedSelect
            field={fields.nodeId as unknown as FieldMetadata<string | undefined>}
            label={t("project.region")}
            placeholder={t("create.chooseRegion")}
            groups={(hydrated && cloud ? [cloud] : o.clouds).map((c) => ({
              label: hydrated ? null : inLanguage(c.cloud, c.cloudZh, language),
              options: c.regions.map((r) => ({
                value: String(r.nodeId),
                label: t("create.region", { name: inLanguage(r.name, r.nameZh, language), count: r.freePeers }),
              })),
            }))}
          />
        </div>
        <TextField
          field={fields.nodeCount as unknown as FieldMetadata<string | undefined>}
          type="number"
          label={t("project.nodeCount")}
          hint={t("create.nodeCountHint", { min: o.peersMin, max: o.peersMax })}
        />
        <RadioGroupField
          field={fields.hostConfig}
          legend={t("project.hostConfig")}
          options={o.hostConfigs.map((h) => ({
            value: h.code,
            label: (
              <span data-testid={`host-${h.code}`}>
                {t("hostConfig", { cpu: h.cpu, memory: h.memoryGb })}
                {" · "}
                {t("create.perPeer", { price: formatUsd(h.peerPricePerMonthCents, language) })}
              </span>
            ),
          }))}
        />
        <RadioGroupField
          field={fields.dataCapacityGb as unknown as FieldMetadata<string | undefined>}
          legend={t("project.dataCapacity")}
          options={o.dataCapacities.map((d) => ({
            value: String(d.gb),
            label: (
              <span>
                {t("dataCapacity", { gb: d.gb })}
                {" · "}
                {t("create.perPeer", { price: formatUsd(d.pricePerMonthCents, language) })}
              </span>
            ),
          }))}
        />
        <RadioGroupField
          field={fields.cycle as unknown as FieldMetadata<string | undefined>}
          legend={t("project.cycle")}
          options={o.cycles.map((c) => ({ value: String(c), label: t(`cycle.${c}`) }))}
        />
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField
            field={fields.authUser}
            label={t("project.authorizedUser")}
            hint={t("create.userHint")}
            autoComplete="off"
          />
          <TextField
            field={fields.password}
            type="password"
            label={t("create.password")}
            hint={t("create.passwordHint")}
            autoComplete="new-password"
          />
          <TextField
            field={fields.confirmPassword}
            type="password"
            label={t("create.confirmPassword")}
            autoComplete="new-password"
          />
        </div>
        <PriceSummary quote={quote} balanceCents={balanceCents} language={language} base={o.basePricePerMonthCents} />
        <div className="flex flex-wrap justify-end gap-2">
          <Link to={PRN} className="btn-secondary">
            {t("common:actions.cancel")}
          </Link>
          <button
            type="submit"
            name="intent"
            value="quote"
            formNoValidate
            className="btn-secondary"
            data-testid="show-price"
          >
            {t("create.quote")}
          </button>
          <SubmitButton intent="create" className="btn-primary">
            {t("create.submit")}
          </SubmitButton>
        </div>
      </Form>
    </FormProvider>
  );
}

function PriceSummary({
  quote,
  balanceCents,
  language,
  base,
}: {
  quote: Quote | null;
  balanceCents: number;
  language: Language;
  base: number;
}) {
  const { t } = useTranslation("dedicatedNodes");
  return (
    <div
      className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm"
      data-testid="price-summary"
      aria-live="polite"
    >
      {quote ? (
        <>
          <p className="font-medium" data-testid="price-now">
            {t("create.youPay", { price: formatUsd(quote.priceCents, language), cycle: t(`cycle.unit${quote.cycle}`) })}
          </p>
          <p className="mt-1 text-slate-600">
            {t("create.perMonthYear", {
              month: formatUsd(quote.monthCents, language),
              year: formatUsd(quote.yearCents, language),
            })}
          </p>
        </>
      ) : (
        <p>{t("create.noQuote")}</p>
      )}
      <p className="mt-1 text-slate-600">{t("create.base", { price: formatUsd(base, language) })}</p>
      <p className="mt-1 text-slate-600">{t("create.balance", { balance: formatUsd(balanceCents, language) })}</p>
    </div>
  );
}

/** A native select whose options may be grouped (optgroup), for the choices that depend on another field. */
function GroupedSelect({
  field,
  label,
  placeholder,
  hint,
  groups,
}: {
  field: FieldMetadata<string | number | undefined>;
  label: string;
  placeholder: string;
  hint?: ReactNode;
  groups: { label: string | null; options: { value: string; label: string }[] }[];
}) {
  const [meta] = useField<string | number | undefined>(field.name, { formId: field.formId });
  const props = getSelectProps(meta, { ariaDescribedBy: hint ? `${meta.id}-hint` : undefined });
  return (
    <div>
      <div className="flex items-baseline gap-1">
        <label htmlFor={meta.id} className="label">
          {label}
        </label>
        {meta.required ? (
          <span aria-hidden="true" className="text-sm font-semibold text-red-700">
            *
          </span>
        ) : null}
      </div>
      <select {...props} key={props.key} className="input">
        <option value="">{placeholder}</option>
        {groups.map((g, i) =>
          g.label === null ? (
            g.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))
          ) : (
            <optgroup key={`${g.label}-${i}`} label={g.label}>
              {g.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </optgroup>
          ),
        )}
      </select>
      {hint ? (
        <p id={`${meta.id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
