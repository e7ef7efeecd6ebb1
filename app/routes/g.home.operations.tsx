import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ErrorView } from "#app/components/ErrorView.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { queueOf } from "#app/lib/dashboard.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { OPERATIONS_GROUPS, operationsQueues } from "#app/lib/menu.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";

export const handle = { breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }] };

/**
 * The operations area (ARCHITECTURE "Operations side"): queues where operators review and confirm what
 * users asked for. Operators only; every loader and action below guards itself too, and the backend
 * answers code 4 to anyone else.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  // The waiting items of each queue beside its tab (docs/decisions/029); a failed count shows the tabs alone.
  const waiting = await apiFor(request, viewer).call("/sys/ops/queues/waiting", {});
  const counts: Record<string, number> = waiting.ok ? waiting.data : {};
  const queues = operationsQueues(getEnv().chainsOnNodes);
  return json({ queues: queues.map((q) => ({ ...q, waiting: counts[queueOf(q.to)] ?? null })) });
}

export default function Operations() {
  const { queues } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="space-y-4">
      <PageHeader title={t("menu.operations")} />
      {/* The queues by group, a row each, instead of one row wrapping over four (issue 30 item 4). */}
      <nav aria-label={t("menu.operations")} className="space-y-1 border-b border-slate-200 pb-2 text-sm">
        {OPERATIONS_GROUPS.map((group) => (
          <div key={group} className="flex flex-wrap items-center gap-1">
            <span className="w-24 shrink-0 text-xs font-semibold uppercase tracking-wide text-slate-500">
              {t(`operations.groups.${group}`)}
            </span>
            {queues
              .filter((q) => q.group === group)
              .map((q) => (
                <NavLink
                  key={q.key}
                  to={q.to}
                  className={({ isActive }) =>
                    `rounded-md px-2.5 py-1 ${isActive ? "bg-brand-600 text-white" : "text-slate-700 hover:bg-slate-100"}`
                  }
                >
                  {t(q.key)}
                  {q.waiting ? (
                    <span
                      className="ml-1.5 inline-flex min-w-5 justify-center rounded-full bg-amber-100 px-1.5 text-xs font-semibold text-amber-900"
                      data-testid={`queue-count-${queueOf(q.to)}`}
                    >
                      {q.waiting}
                      <span className="sr-only"> {t("operations.waiting")}</span>
                    </span>
                  ) : null}
                </NavLink>
              ))}
          </div>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorView />;
}
