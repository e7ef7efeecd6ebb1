import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { MyAccountPage } from "#app/components/billing/MyAccountPage.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { dayFromQuery, kindFromQuery } from "#app/lib/bills.server.ts";
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
  const filter = {
    kind: kindFromQuery(params),
    dateFrom: dayFromQuery(params, "dateFrom"),
    dateTo: dayFromQuery(params, "dateTo"),
  };
  const api = apiFor(request, viewer);
  const [summary, usage, ipfsUsage, transactions] = await Promise.all([
    api.load("/sys/account/summary", {}),
    api.load("/sys/account/usage30", {}),
    api.load("/sys/ipfsBusiness/ipfs/usageByGateway", {}),
    api.load("/sys/account/transactions", { page: { ...pagingOf(url), condition: filter } }),
  ]);
  return json({ summary, usage, ipfsUsage, transactions: transactions.page, filter, language: viewer.language });
}

export default function MyAccount() {
  return <MyAccountPage {...useLoaderData<typeof loader>()} />;
}
