import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Badge } from "#app/components/Badge.tsx";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { MarketEntryForm } from "#app/components/market/MarketEntryForm.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { loadMarketOps, marketOpsAction, OPS_MARKET } from "#app/lib/market-ops.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { Table } from "#app/components/Table.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["market", "wizard"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.opsMarket" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("opsMarket");

/** Operations: the chaincode market's entries (issue 15; docs/decisions/042): add, update, withdraw. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  return json(await loadMarketOps(apiFor(request, viewer), new URL(request.url)));
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  return marketOpsAction(request, apiFor(request, viewer));
}

export default function MarketEntries() {
  const { page, editing, creating, confirm } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("market");
  const result = actionData && "result" in actionData ? actionData.result : null;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold">{t("ops.title")}</h2>
          <p className="max-w-3xl text-sm text-slate-700">{t("ops.intro")}</p>
        </div>
        <Link to={`${OPS_MARKET}?new=1`} className="btn-primary">
          {t("ops.new")}
        </Link>
      </div>
      {confirm ? (
        <IntentConfirmStep
          id="market-withdraw"
          title={t("ops.withdraw", { name: confirm.name })}
          question={t("ops.withdrawQuestion", { name: confirm.name })}
          intent="withdraw"
          fields={{ marketPackageId: confirm.marketPackageId, withdrawn: "1" }}
          action={OPS_MARKET}
          cancelTo={OPS_MARKET}
          confirmLabel={t("ops.withdraw", { name: confirm.name })}
          cancelLabel={t("ops.cancel")}
          danger
        />
      ) : null}
      {editing || creating ? (
        <MarketEntryForm
          key={editing?.marketPackageId ?? "new"}
          entry={editing}
          result={result}
          cancelTo={OPS_MARKET}
        />
      ) : null}
      <section aria-labelledby="market-entries" className="space-y-2">
        <h3 id="market-entries" className="font-semibold">
          {t("ops.list")}
        </h3>
        {page.rows.length === 0 ? (
          <p className="card text-sm text-slate-700">{t("ops.empty")}</p>
        ) : (
          <Table
            label={t("ops.list")}
            head={[
              t("table.name"),
              t("table.language"),
              t("table.version"),
              { header: t("table.downloads"), numeric: true },
              t("table.actions"),
            ]}
          >
            {page.rows.map((p) => (
              <tr key={p.marketPackageId} data-testid="market-entry">
                <th scope="row" className="px-3 py-2 text-left font-mono">
                  {p.name} <Badge tone={p.status === "published" ? "ok" : "off"}>{t(`ops.status.${p.status}`)}</Badge>
                </th>
                <td className="px-3 py-2">{t(`languages.${p.language}`)}</td>
                <td className="px-3 py-2">{p.version}</td>
                <td className="px-3 py-2 text-right tabular-nums">{p.downloads}</td>
                <td className="px-3 py-2">
                  <Form
                    method="post"
                    id={`market-withdraw-${p.marketPackageId}`}
                    className="flex flex-wrap items-center gap-2"
                  >
                    <Link className="link" to={`${OPS_MARKET}?edit=${p.marketPackageId}`}>
                      {t("ops.edit", { name: p.name })}
                    </Link>
                    <input type="hidden" name="marketPackageId" value={p.marketPackageId} />
                    <input type="hidden" name="intent" value="withdraw" />
                    <input type="hidden" name="withdrawn" value={p.status === "published" ? "1" : "0"} />
                    {p.status === "published" ? (
                      <ConfirmSubmit
                        formId={`market-withdraw-${p.marketPackageId}`}
                        label={t("ops.withdraw", { name: p.name })}
                        title={t("ops.withdraw", { name: p.name })}
                        question={t("ops.withdrawQuestion", { name: p.name })}
                        confirmLabel={t("ops.withdraw", { name: p.name })}
                        className="btn-danger px-2 py-1 text-xs"
                      />
                    ) : (
                      <button type="submit" className="btn-secondary px-2 py-1 text-xs">
                        {t("ops.restore", { name: p.name })}
                      </button>
                    )}
                  </Form>
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
      </section>
    </div>
  );
}
