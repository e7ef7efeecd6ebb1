import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import { ownerActions, ProductStatus } from "#contract/store-codes.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { BlockedLink } from "#app/components/BlockedAction.tsx";
import { Cover, ProductStatusBadge, StoreHeading } from "#app/components/store/listing.tsx";
import { apiFor, redirectAfter, requireUser, type Api } from "#app/lib/api.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import { intentOf, parseFormOr400 } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { blockOf, unlessRefusedForBills } from "#app/lib/unpaid-guard.server.ts";
import { positiveParam } from "#app/lib/params.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["store", "billing"],
  breadcrumb: [{ key: "menu.appStore" }, { key: "menu.myProducts" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("myProducts");

const PAGE_SIZE = 10;

function back(url: URL) {
  const q = new URLSearchParams(url.search);
  q.delete("confirm");
  q.delete("index");
  const s = q.toString();
  return url.pathname + (s ? `?${s}` : "");
}

/** My products: the owner's products in every §4 status, with the actions the state machine allows. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const page = positiveParam(url.searchParams.get("page")) ?? 1;
  const api = apiFor(request, viewer);
  // The blocked entries (SPEC §5: new products and their submission) say so before the click.
  const [data, block] = await Promise.all([
    api.load("/sys/product/mine", { pageIndex: page, pageSize: PAGE_SIZE }),
    blockOf(api, 1),
  ]);
  // Without JavaScript, removing asks on a confirm step (?confirm=<productId>).
  const confirmId = positiveParam(url.searchParams.get("confirm"));
  const confirm = confirmId
    ? (data.page.rows.find((r) => r.productId === confirmId && ownerActions(r.status).includes("remove")) ?? null)
    : null;
  return json({
    ...data,
    confirm: confirm ? { productId: confirm.productId, name: confirm.name } : null,
    back: back(url),
    language: viewer.language,
    block,
  });
}

const productForm = z.object({
  productId: z.coerce.number().int().positive(),
  confirmed: z.literal("yes").optional(),
});

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const intent = intentOf(formData, ["submit", "remove"]);
  const v = parseFormOr400(productForm, formData);
  const url = new URL(request.url);
  const api = apiFor(request, viewer);
  switch (intent) {
    case "submit":
      return redirectAfter(
        request,
        await unlessRefusedForBills(
          request,
          await api.call("/sys/product/submit", { productId: v.productId }),
          "submitProduct",
        ),
        back(url),
        "store:flash.submitted",
      );
    case "remove":
      return remove(request, api, v, url);
  }
}

/** Removing asks first: without JavaScript the answer is the confirm step (?confirm=<productId>). */
async function remove(request: Request, api: Api, v: z.output<typeof productForm>, url: URL) {
  const here = back(url);
  if (v.confirmed !== "yes") {
    const q = new URLSearchParams(here.split("?")[1] ?? "");
    q.set("confirm", String(v.productId));
    return redirect(`${url.pathname}?${q}`);
  }
  return redirectAfter(
    request,
    await api.call("/sys/product/remove", { productId: v.productId }),
    here,
    "store:flash.removed",
  );
}

export default function MyProducts() {
  const { page, confirm, back: here, language, block } = useLoaderData<typeof loader>();
  const { t } = useTranslation("store");
  const location = useLocation();
  const action = location.pathname + (here.includes("?") ? `?${here.split("?")[1]}` : "");
  return (
    <div className="space-y-4">
      <StoreHeading title={t("mine.title")} intro={t("mine.intro")}>
        <BlockedLink
          to="/g/home/AppStore/ProductEdit"
          action="newProduct"
          block={block}
          className="btn-primary inline-block"
        >
          {t("mine.new")}
        </BlockedLink>
      </StoreHeading>
      {confirm ? (
        <IntentConfirmStep
          id="remove-title"
          title={t("mine.removeTitle")}
          question={t("mine.removeQuestion", { name: confirm.name })}
          intent="remove"
          fields={{ productId: confirm.productId }}
          action={action}
          cancelTo={here}
          confirmLabel={t("mine.confirm")}
          cancelLabel={t("mine.cancel")}
          danger
        />
      ) : null}
      {page.rows.length === 0 ? (
        <EmptyState message={t("mine.empty")} />
      ) : (
        <ul className="space-y-3">
          {page.rows.map((p) => {
            const actions = ownerActions(p.status);
            const formId = `product-${p.productId}`;
            return (
              <li key={p.productId} className="card flex flex-wrap gap-4 p-4" data-testid="my-product">
                <Cover kind="product" id={p.productId} name={p.name} hasCover={p.hasCover} size="h-16 w-16" />
                <div className="min-w-0 flex-1 space-y-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <h2 className="font-semibold" data-user-content="">
                      {p.name}
                    </h2>
                    <ProductStatusBadge status={p.status} />
                  </div>
                  <p className="text-xs text-slate-500">
                    {t(`productTypes.${p.productType}`)}
                    {p.company ? ` · ${t("products.company")}` : ""} · {formatUsd(p.suggestedPriceCents, language)}{" "}
                    {t(`payModes.${p.payMode}`)}
                    {p.listedAt ? ` · ${t("products.listed")}: ${formatDate(p.listedAt, language)}` : ""} ·{" "}
                    {t("products.followers", { count: p.followers })}
                  </p>
                  {p.reviewComments ? (
                    <p className="text-sm text-red-700">
                      {t("mine.reviewComments")}: <span data-user-content="">{p.reviewComments}</span>
                    </p>
                  ) : null}
                  <Form method="post" id={formId} action={action} className="flex flex-wrap items-center gap-2 pt-1">
                    <input type="hidden" name="productId" value={p.productId} />
                    {p.status === ProductStatus.LISTED ? (
                      <Link to={`/g/home/AppStore/Product?id=${p.productId}`} className="btn-secondary text-sm">
                        {t("mine.view")}
                      </Link>
                    ) : null}
                    {actions.includes("edit") ? (
                      <Link to={`/g/home/AppStore/ProductEdit?id=${p.productId}`} className="btn-secondary text-sm">
                        {t("mine.edit")}
                      </Link>
                    ) : null}
                    {actions.includes("submit") ? (
                      <button type="submit" name="intent" value="submit" className="btn-primary text-sm">
                        {t("mine.submit")}
                      </button>
                    ) : null}
                    {actions.includes("remove") ? (
                      <ConfirmSubmit
                        formId={formId}
                        name="intent"
                        value="remove"
                        label={t("mine.remove")}
                        title={t("mine.removeTitle")}
                        question={t("mine.removeQuestion", { name: p.name })}
                        confirmLabel={t("mine.confirm")}
                        className="btn-danger text-sm"
                      />
                    ) : null}
                  </Form>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
