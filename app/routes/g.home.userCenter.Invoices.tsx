import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { ErrorView } from "#app/components/ErrorView.tsx";
import { requireUser } from "#app/lib/api.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

/** SPEC §2 Invoices: the layout of the list, add, details, titles and receiving addresses. */
export const handle = {
  i18n: ["invoices"],
  breadcrumb: [{ key: "menu.userCenter" }, { key: "menu.invoices", to: "/g/home/userCenter/Invoices" }],
};
export const clientLoader = withNamespaces(handle);

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return json(null);
}

export default function InvoicesLayout() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <ErrorView />;
}
