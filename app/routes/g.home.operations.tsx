import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ErrorView } from "~/components/ErrorView";
import { requireOperator } from "~/lib/api.server";
import { OPERATIONS_QUEUES } from "~/lib/menu";

export const handle = { breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }] };

/**
 * The operations area (ARCHITECTURE "Operations side"): queues where operators review and confirm what
 * users asked for. Operators only; every loader and action below guards itself too, and the backend
 * answers code 4 to anyone else.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  return json({ queues: OPERATIONS_QUEUES });
}

export default function Operations() {
  const { queues } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">{t("menu.operations")}</h1>
      <nav aria-label={t("menu.operations")} className="flex flex-wrap gap-2 border-b border-slate-200 pb-2 text-sm">
        {queues.map((q) => (
          <NavLink key={q.key} to={q.to}
            className={({ isActive }) => `rounded-md px-3 py-1.5 ${isActive ? "bg-brand-600 text-white" : "text-slate-700 hover:bg-slate-100"}`}>
            {t(q.key)}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorView />;
}
