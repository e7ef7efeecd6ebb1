import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BillDetailPage } from "#app/components/billing/BillDetailPage.tsx";
import { ErrorView } from "#app/components/ErrorView.tsx";
import { apiFor, badRequest, requireUser } from "#app/lib/api.server.ts";
import { payFormOf } from "#app/lib/bills.server.ts";
import { formatUsd } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["billing"],
  breadcrumb: [
    { key: "menu.userCenter", to: "/g/home/userCenter/MyAccount" },
    { key: "menu.myBills", to: "/g/home/userCenter/MyBills" },
    { key: "titles.billDetail" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("billDetail", (d) => d.bill?.billNo);

function billIdOf(request: Request): number {
  const raw = new URL(request.url).searchParams.get("billId") ?? "";
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (id <= 0) throw json({ messageKey: "errors:MSG_10002" }, { status: 404 });
  return id;
}

/**
 * SPEC §2 BillDetail (appId, billId, billType): every §3 Bill field, the usage detail and the breakdown (ADR 093). Paying is a
 * confirmation step (`confirm=pay` in the URL, so it works without JavaScript) and a POST carrying an
 * idempotency key issued here, so a double click or a resubmitted form pays once.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const billId = billIdOf(request);
  const [bill, breakdown] = await Promise.all([
    api.load("/sys/system/clientInfo/h5billDetail", { billId }),
    api.load("/sys/system/clientInfo/billBreakdown", { billId }),
  ]);
  const confirming = bill.payable && new URL(request.url).searchParams.get("confirm") === "pay";
  // The balance is shown only on the confirmation step.
  const balanceCents = confirming ? (await api.load("/sys/account/summary", {})).balanceCents : null;
  return json({
    bill,
    breakdown,
    confirming,
    balanceCents,
    idempotencyKey: crypto.randomUUID(),
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const billId = billIdOf(request);
  const form = payFormOf(await request.formData());
  // The page's one form: intent "pay" with the key the loader issued; anything else is a 400 (house habit 2).
  if (!form) throw badRequest();
  const result = await apiFor(request, viewer).call("/sys/system/clientInfo/h5billPay", {
    billId,
    idempotencyKey: form.idempotencyKey,
  });
  if (!result.ok) {
    return json(
      { messageKey: result.messageKey, insufficient: result.messageKey === "errors:MSG_30001" },
      { status: 400 },
    );
  }
  const url = new URL(request.url);
  url.searchParams.delete("confirm");
  url.searchParams.delete("index");
  return redirectWithFlash(request, url.pathname + url.search, {
    kind: "success",
    key: "billing:pay.done",
    params: { billNo: result.data.billNo, amount: formatUsd(result.data.paidCents, viewer.language) },
  });
}

export default function BillDetail() {
  return <BillDetailPage {...useLoaderData<typeof loader>()} failure={useActionData<typeof action>()} />;
}

export function ErrorBoundary() {
  return <ErrorView />;
}
