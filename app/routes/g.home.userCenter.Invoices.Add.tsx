import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  ConfirmStep,
  SelectStep,
  Steps,
  type ApplicationWizardData,
} from "#app/components/invoices/application-wizard.tsx";
import { invoiceStepUrl } from "#app/lib/invoices-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { applyForInvoice, selectInvoiceBills } from "#app/lib/invoices.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { newIdempotencyKey } from "#app/lib/payments.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["invoices"], breadcrumb: [{ key: "invoices:add.crumb" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("invoiceAdd");

const ID_RE = /^[1-9][0-9]{0,9}$/;

/**
 * SPEC §2 Invoices add: "select billing" → "confirm information" → submit. The step is in the URL; the
 * selection travels in the URL and in the form (docs/decisions/008), so it works without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const step = url.searchParams.get("step") === "confirm" ? "confirm" : "select";
  const selected = [...new Set(url.searchParams.getAll("billIds").filter((id) => ID_RE.test(id)))];
  const api = apiFor(request, viewer);
  const invoiceable = await api.load("/sys/system/invoiceAccountTrade/h5queryInvoiceableBills", {});
  if (step === "select") {
    return json<ApplicationWizardData>({
      step,
      language: viewer.language,
      ...invoiceable,
      selected,
      dropped: 0,
      titles: [],
      addresses: [],
      email: "",
      idempotencyKey: "",
    });
  }
  const chosen = invoiceable.bills.filter((b) => selected.includes(String(b.billId)));
  // Nothing chosen at all: back to the choice. Chosen bills that can no longer be invoiced (invoiced from
  // another tab) stay on this step as "dropped", so a refused application keeps its message and its choices.
  if (selected.length === 0) throw redirect(invoiceStepUrl("select", []));
  const [titles, addresses, me] = await Promise.all([
    api.load("/sys/invoicetitles/h5queryInvoiceTitleList", { page: { pageSize: 100, pageIndex: 1, condition: {} } }),
    api.load("/sys/system/clientInfo/queryClientAddresseeList", {
      page: { pageSize: 100, pageIndex: 1, condition: {} },
    }),
    api.load("/main/getClientInfo", {}),
  ]);
  return json<ApplicationWizardData>({
    step,
    language: viewer.language,
    invoiceableCents: invoiceable.invoiceableCents,
    bills: chosen,
    selected: chosen.map((b) => String(b.billId)),
    dropped: selected.length - chosen.length,
    titles: titles.page.rows,
    addresses: addresses.page.rows,
    email: me.email,
    idempotencyKey: newIdempotencyKey(),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  switch (intentOf(formData, ["select", "apply"])) {
    case "select":
      return selectInvoiceBills(formData);
    case "apply":
      return applyForInvoice(request, apiFor(request, viewer), formData);
  }
}

export default function AddInvoice() {
  const data = useLoaderData<typeof loader>();
  const { step } = data;
  const { t } = useTranslation("invoices");
  return (
    <div className="space-y-4">
      <PageHeader title={t("add.heading")} />
      <Steps step={step} />
      {step === "select" ? <SelectStep data={data} /> : <ConfirmStep key="confirm" data={data} />}
    </div>
  );
}
