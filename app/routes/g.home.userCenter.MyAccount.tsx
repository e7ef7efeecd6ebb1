import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { MyAccountPage } from "#app/components/billing/MyAccountPage.tsx";
import { autoPayFormSchema } from "#contract/billing.ts";
import { apiFor, redirectAfter, requireUser } from "#app/lib/api.server.ts";
import { intentOf, parseFormOr400 } from "#app/lib/intents.server.ts";
import { transactionFilterFromQuery } from "#app/lib/bills.server.ts";
import { pagingOf } from "#app/lib/paging.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["billing", "ipfs", "services"],
  breadcrumb: [{ key: "menu.userCenter", to: "/g/home/userCenter/MyAccount" }, { key: "menu.myAccount" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("myAccount");

/**
 * SPEC §2 MyAccount (the userCenter default) and §3 Account: balance, withdrawable and invoiceable
 * amounts, the card, quick actions, recent recharges and withdrawals, the 30-day data usage by city
 * node, the IPFS data usage by city node gateway, and the transaction inquiry (a GET form over the ledger). This route has no Outlet: Recharge,
 * Withdraw and Update are MyAccount_.* routes of their own.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const params = url.searchParams;
  const filter = transactionFilterFromQuery(params);
  const api = apiFor(request, viewer);
  const [summary, usage, ipfsUsage, transactions] = await Promise.all([
    api.load("/sys/account/summary", {}),
    api.load("/sys/account/usage30", {}),
    api.load("/sys/ipfsBusiness/ipfs/usageByGateway", {}),
    api.load("/sys/account/transactions", { page: { ...pagingOf(url), condition: filter } }),
  ]);
  return json({ summary, usage, ipfsUsage, transactions: transactions.page, filter, language: viewer.language });
}

/** Auto-pay of usage bills on or off (docs/decisions/059): a plain POST, back here with what it now does. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  intentOf(formData, ["autoPay"] as const);
  const { enabled } = parseFormOr400(autoPayFormSchema, formData);
  const result = await apiFor(request, viewer).call("/sys/account/autoPay", { enabled });
  return redirectAfter(
    request,
    result,
    "/g/home/userCenter/MyAccount#auto-pay",
    enabled ? "billing:account.autoPay.turnedOn" : "billing:account.autoPay.turnedOff",
  );
}

export default function MyAccount() {
  return <MyAccountPage {...useLoaderData<typeof loader>()} />;
}
