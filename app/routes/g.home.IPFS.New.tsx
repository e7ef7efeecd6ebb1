import { FormProvider, getFormProps, getInputProps, useField, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ipfsCreateSchema } from "#contract/ipfs.ts";
import { RadioGroupField, TextField } from "#app/components/forms.tsx";
import { ErrorList, FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { inLanguage } from "#app/components/details.tsx";
import { capacityLabel } from "#app/components/ipfs/badges.tsx";
import { IPFS, serviceHref } from "#app/lib/ipfs-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatUsd } from "#app/lib/format.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { newIdempotencyKey } from "#app/lib/payments.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { requireNoUnpaidBills } from "#app/lib/unpaid-guard.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["ipfs", "services"],
  breadcrumb: [{ key: "titles.ipfs", to: IPFS }, { key: "titles.ipfsNew" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("ipfsNew");

/**
 * A new IPFS service (SPEC §2 "create", §7 selectCapacity, selectIpfsOrgFlowPrices, getIpfsPrice): a name, a
 * capacity with its price for the first period, and the city node gateways with their traffic prices. The price
 * is paid from the balance with a bill (§9); unpaid bills block it (§5), and the backend checks every rule again.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  await requireNoUnpaidBills(request, viewer, "newIpfsService");
  const api = apiFor(request, viewer);
  const [capacities, gateways, account] = await Promise.all([
    api.load("/sys/ipfsBusiness/ipfsUpgrade/selectCapacity", {}),
    api.load("/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices", {}),
    api.load("/sys/account/summary", {}),
  ]);
  const prices = await Promise.all(
    capacities.map((c) => api.load("/sys/ipfsBusiness/ipfs/getIpfsPrice", { storeUnit: c.storeUnit })),
  );
  return json({
    prices,
    gateways,
    balanceCents: account.balanceCents,
    idempotencyKey: newIdempotencyKey(),
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  await requireNoUnpaidBills(request, viewer, "newIpfsService");
  const submission = parseWithZod(await request.formData(), { schema: ipfsCreateSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer).call("/sys/ipfsBusiness/ipfs/create", submission.value);
  if (!result.ok)
    return json({ result: replyWithFailure(submission, result) }, { status: result.status === 404 ? 404 : 400 });
  return redirectWithFlash(request, serviceHref(result.data.ipfsServiceId), {
    kind: "success",
    key: "ipfs:create.done",
    params: { name: result.data.name, billNo: result.data.billNo ?? "" },
  });
}

export default function NewIpfsService() {
  const { prices, gateways, balanceCents, idempotencyKey, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("ipfs");
  const [form, fields] = useSchemaForm(ipfsCreateSchema, actionData?.result, {
    id: "new-ipfs",
    defaultValue: {
      idempotencyKey,
      storeUnit: String(prices[0]?.storeUnit ?? ""),
      orgIds: gateways.length === 1 ? [String(gateways[0].orgId)] : [],
    },
  });
  const chosen = prices.find((p) => String(p.storeUnit) === String(form.value?.storeUnit ?? ""));
  return (
    <div className="max-w-2xl space-y-4">
      <PageHeader title={t("create.title")} />
      <p className="text-sm text-slate-600">{t("create.intro")}</p>
      <div className="card">
        <FormProvider context={form.context}>
          <Form method="post" {...getFormProps(form)} className="space-y-5">
            <FormErrors id={form.errorId} errors={form.errors} />
            <input {...getInputProps(fields.idempotencyKey, { type: "hidden" })} key={fields.idempotencyKey.key} />
            <TextField field={fields.name} label={t("create.name")} hint={t("create.nameHint")} autoComplete="off" />
            <RadioGroupField
              field={fields.storeUnit as unknown as FieldMetadata<string | undefined>}
              legend={t("create.capacity")}
              options={prices.map((p) => ({
                value: String(p.storeUnit),
                label: (
                  <span data-testid={`capacity-${p.storeUnit}`}>
                    <span className="font-medium">{capacityLabel(p.storeUnit)}</span>
                    {" · "}
                    {t("create.capacityPrice", {
                      price: formatUsd(p.priceCents, language),
                      days: p.periodDays,
                      unit: formatUsd(p.unitPriceCents, language),
                    })}
                  </span>
                ),
              }))}
            />
            <GatewayChoice
              name={fields.orgIds.name}
              formId={form.id}
              legend={t("create.gateways")}
              hint={t("create.gatewaysHint")}
              options={gateways.map((g) => ({
                value: String(g.orgId),
                label: inLanguage(g.orgName, g.orgNameZh, language),
                price: t("create.trafficPrice", { price: formatUsd(g.flowPriceCents, language) }),
              }))}
            />
            <div className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="price-summary">
              {chosen ? (
                <p className="font-medium">
                  {t("create.youPay", {
                    price: formatUsd(chosen.priceCents, language),
                    capacity: capacityLabel(chosen.storeUnit),
                    days: chosen.periodDays,
                  })}
                </p>
              ) : (
                <p>{t("create.choosePrice")}</p>
              )}
              <p className="mt-1 text-slate-600">
                {t("create.balance", { balance: formatUsd(balanceCents, language) })}
              </p>
              <p className="mt-1 text-slate-600">{t("create.trafficNote")}</p>
            </div>
            <div className="flex justify-end gap-2">
              <Link to={IPFS} className="btn-secondary">
                {t("common:actions.cancel")}
              </Link>
              <SubmitButton className="btn-primary">{t("create.submit")}</SubmitButton>
            </div>
          </Form>
        </FormProvider>
      </div>
    </div>
  );
}

/** The city node gateways as checkboxes (at least one), each with its traffic price. */
function GatewayChoice({
  name,
  formId,
  legend,
  hint,
  options,
}: {
  name: string;
  formId: string;
  legend: string;
  hint: string;
  options: { value: string; label: string; price: string }[];
}) {
  const [meta] = useField<string[]>(name, { formId });
  const chosen = new Set(
    (Array.isArray(meta.initialValue) ? meta.initialValue : meta.initialValue ? [meta.initialValue] : []).map(String),
  );
  return (
    <fieldset aria-describedby={`${meta.id}-hint${meta.errors ? ` ${meta.errorId}` : ""}`}>
      <legend className="label">
        {legend}
        <span aria-hidden="true" className="ml-1 text-sm font-semibold text-red-700">
          *
        </span>
      </legend>
      <p id={`${meta.id}-hint`} className="mb-2 text-xs text-slate-600">
        {hint}
      </p>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((o) => (
          <label key={o.value} className="flex items-start gap-2 rounded-md border border-slate-200 p-2 text-sm">
            <input
              type="checkbox"
              name={name}
              value={o.value}
              defaultChecked={chosen.has(o.value)}
              className="mt-0.5 h-4 w-4"
              data-testid={`gateway-${o.value}`}
            />
            <span>
              <span className="font-medium">{o.label}</span>
              <span className="block text-xs text-slate-600">{o.price}</span>
            </span>
          </label>
        ))}
      </div>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}
