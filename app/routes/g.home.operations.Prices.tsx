import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { priceFormSchema } from "#contract/prices.ts";
import { toCents } from "#contract/rules.ts";
import { Pagination } from "#app/components/Pagination.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam } from "#app/lib/params.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { Table } from "#app/components/Table.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["configuration"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.prices" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("prices");

/**
 * Operations: the price catalogue (docs/decisions/036, 073). One form per item (a city node, a public-chain
 * plan, an IPFS capacity, a dedicated-node host, a fee or rate) with its prices in USD; saving records each
 * changed price with its author and time (the history below) and applies to new orders, renewals and the
 * next charge only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const api = apiFor(request, viewer);
  const [catalogue, history] = await Promise.all([
    api.load("/sys/ops/prices/list", {}),
    api.load("/sys/ops/prices/history", { pageIndex: pageParam(url), pageSize: 20 }),
  ]);
  return json({ areas: catalogue.areas, history: history.page, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const formData = await request.formData();
  intentOf(formData, ["save"] as const);
  const prices: Record<string, string> = {};
  for (const [k, v] of formData) if (k.startsWith("prices.") && typeof v === "string") prices[k.slice(7)] = v;
  const typed = { area: formData.get("area"), itemId: formData.get("itemId"), prices };
  const item = `${typed.area}:${typed.itemId}`;
  const parsed = priceFormSchema.safeParse(typed);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[1] ?? issue.path[0])] = issue.message;
    return json({ item, typed: prices, errors, messageKey: null as string | null }, { status: 400 });
  }
  const cents: Record<string, number> = {};
  for (const [field, typedPrice] of Object.entries(parsed.data.prices))
    if (typedPrice !== undefined) cents[field] = toCents(typedPrice);
  const result = await apiFor(request, viewer).call("/sys/ops/prices/set", {
    area: parsed.data.area,
    itemId: parsed.data.itemId,
    prices: cents,
  });
  if (!result.ok)
    return json(
      { item, typed: prices, errors: {} as Record<string, string>, messageKey: result.messageKey },
      { status: 400 },
    );
  const url = new URL(request.url);
  return redirectWithFlash(request, url.pathname + url.search, {
    kind: "success",
    key: result.data.changed > 0 ? "configuration:flash.pricesSaved" : "configuration:flash.pricesUnchanged",
  });
}

const usdText = (cents: number) => (cents / 100).toFixed(2);

export default function PricesPage() {
  const { areas, history, language } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t } = useTranslation(["configuration", "forms"]);
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-lg font-semibold">{t("prices.title")}</h2>
        <p className="text-sm text-slate-700">{t("prices.intro")}</p>
      </div>
      {areas.map((area) => (
        <section key={area.area} className="space-y-3" aria-labelledby={`area-${area.area}`}>
          <h3 id={`area-${area.area}`} className="font-semibold">
            {t(`prices.areas.${area.area}`)}
          </h3>
          <ul className="space-y-3">
            {area.items.map((item) => {
              const key = `${area.area}:${item.itemId}`;
              const mine = answer && answer.item === key ? answer : null;
              const name = language === "zh-CN" ? item.nameZh : item.name;
              return (
                <li key={key} className="card" data-testid="price-item">
                  {/* Named with its area: two areas may have an item of the same name (50 GB). */}
                  <Form method="post" className="space-y-2" aria-label={`${t(`prices.areas.${area.area}`)} · ${name}`}>
                    <input type="hidden" name="area" value={area.area} />
                    <input type="hidden" name="itemId" value={item.itemId} />
                    <p className="font-medium">{name}</p>
                    {mine?.messageKey ? (
                      <p role="alert" className="text-sm text-red-700">
                        {t(mine.messageKey)}
                      </p>
                    ) : null}
                    <div className="flex flex-wrap gap-3">
                      {item.prices.map((p) => {
                        const id = `price-${area.area}-${item.itemId}-${p.field}`;
                        const error = mine?.errors[p.field];
                        return (
                          <div key={p.field} className="w-44">
                            <label htmlFor={id} className="label text-xs">
                              {t(`prices.fields.${p.field}`)} (USD)
                            </label>
                            <input
                              id={id}
                              name={`prices.${p.field}`}
                              inputMode="decimal"
                              className="input py-1 tabular-nums"
                              defaultValue={mine?.typed[p.field] ?? usdText(p.cents)}
                              aria-invalid={error ? true : undefined}
                              aria-describedby={error ? `${id}-error` : undefined}
                            />
                            {error ? (
                              <p id={`${id}-error`} className="mt-1 text-xs text-red-700">
                                {t(`forms:${error}`, { defaultValue: t(error) })}
                              </p>
                            ) : null}
                          </div>
                        );
                      })}
                    </div>
                    <button type="submit" name="intent" value="save" className="btn-secondary">
                      {t("prices.save", { name })}
                    </button>
                  </Form>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
      <section aria-labelledby="price-history" className="space-y-2">
        <h3 id="price-history" className="font-semibold">
          {t("prices.history")}
        </h3>
        {history.rows.length === 0 ? (
          <p className="card text-sm text-slate-700">{t("prices.noHistory")}</p>
        ) : (
          <Table
            label={t("prices.history")}
            testId="price-history"
            head={[
              t("common:zoneHeader", { label: t("prices.time") }),
              t("prices.item"),
              t("prices.field"),
              { header: t("prices.old"), numeric: true },
              { header: t("prices.new"), numeric: true },
              t("prices.author"),
            ]}
          >
            {history.rows.map((c) => (
              <tr key={c.changeId}>
                <td className="px-3 py-2">{formatDate(c.createdAt, language, true, false)}</td>
                <td className="px-3 py-2">
                  {t(`prices.areas.${c.area}`)} · {language === "zh-CN" ? c.itemNameZh : c.itemName}
                </td>
                <td className="px-3 py-2">{t(`prices.fields.${c.field}`)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatUsd(c.oldCents, language)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatUsd(c.newCents, language)}</td>
                <td className="px-3 py-2" data-user-content="">
                  {c.author}
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pagination pageIndex={history.pageIndex} pageSize={history.pageSize} total={history.total} />
      </section>
    </div>
  );
}
