import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { DataOf } from "#contract/paths.ts";
import { productDecisionSchema } from "#contract/store.ts";
import { approveReject, DecisionForm } from "#app/components/ReviewRow.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { Cover } from "#app/components/store/listing.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { decideQueueItem, queueDecision } from "#app/lib/operations-review.server.ts";
import { pageParam } from "#app/lib/params.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["store", "payments"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.productReviews" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("productReviews");

type Item = DataOf<"/sys/ops/products/list">["page"]["rows"][number];

/** Operations: products waiting for approval (§4 Product 1); approve → listed (2), reject with comments → 3. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const page = pageParam(new URL(request.url));
  const data = await apiFor(request, viewer).load("/sys/ops/products/list", { pageIndex: page, pageSize: 10 });
  return json({ ...data, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  return decideQueueItem(request, {
    idName: "productId",
    confirm: true,
    decisions: {
      review: queueDecision({
        schema: productDecisionSchema,
        decide: (v) => apiFor(request, viewer).call("/sys/ops/products/decide", v),
        flash: (v) => ({ approve: "store:flash.approved", reject: "store:flash.rejected" })[v.decision],
      }),
    },
  });
}

function ProductItem({ item, language }: { item: Item; language: Language }) {
  const { t } = useTranslation("store");
  return (
    <li className="card space-y-3" data-testid="product-review" aria-labelledby={`product-title-${item.productId}`}>
      <div className="flex flex-wrap gap-4">
        <Cover kind="product" id={item.productId} name={item.name} hasCover={item.hasCover} size="h-16 w-16" />
        <div className="min-w-0 flex-1 space-y-1">
          <h2 id={`product-title-${item.productId}`} className="font-semibold" data-user-content="">
            {item.name}
          </h2>
          <p className="text-xs text-slate-500">
            {t(`productTypes.${item.productType}`)}
            {item.company ? ` · ${t("products.company")}` : ""} · {t("products.owner")}:{" "}
            <span data-user-content="">{item.owner}</span> · {formatUsd(item.suggestedPriceCents, language)}{" "}
            {t(`payModes.${item.payMode}`)} · {t("ops.submitted")}: {formatDate(item.createdAt, language, true)}
          </p>
          <p className="text-sm text-slate-700" data-user-content="">
            {item.brief}
          </p>
          <p className="whitespace-pre-line text-sm text-slate-600" data-user-content="">
            {item.description}
          </p>
        </div>
      </div>
      <DecisionForm
        id={`product-review-${item.productId}`}
        intent="review"
        idName="productId"
        idValue={item.productId}
        subject={item.name}
        decisions={approveReject(t)}
        comments={{ label: t("ops.comments"), hint: t("ops.commentsHint") }}
      />
    </li>
  );
}

export default function ProductReviews() {
  const { page, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("store");
  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold">{t("ops.title")}</h2>
      {page.rows.length === 0 ? (
        <EmptyState message={t("ops.empty")} />
      ) : (
        <ul className="space-y-4">
          {page.rows.map((item) => (
            <ProductItem key={item.productId} item={item} language={language} />
          ))}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
