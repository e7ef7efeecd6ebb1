import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PRODUCT_TYPES } from "#contract/store-codes.ts";
import { SearchForm } from "#app/components/SearchForm.tsx";
import { Catalogue, CatalogueCard, StoreHeading } from "#app/components/store/listing.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { oneOf, pageParam, searchParam } from "#app/lib/params.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["store"],
  breadcrumb: [{ key: "menu.appStore" }, { key: "menu.storeProducts" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("storeProducts");

const PAGE_SIZE = 10;

/** SPEC §2 App store, all products: listed products (§3 Product), search, type filter, pagination. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const name = searchParam(url.searchParams);
  const type = oneOf(PRODUCT_TYPES, url.searchParams.get("type")) ?? "";
  const page = pageParam(url);
  const data = await apiFor(request, viewer).load("/sys/product/list", {
    pageIndex: page,
    pageSize: PAGE_SIZE,
    name: name || undefined,
    productType: type ? Number(type) : undefined,
  });
  return json({ ...data, name, type, language: viewer.language });
}

export default function StoreProducts() {
  const { page, name, type, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("store");
  return (
    <div className="space-y-4">
      <StoreHeading title={t("products.title")} intro={t("products.intro")}>
        <Link to="/g/home/AppStore/MyProducts" className="btn-secondary">
          {t("mine.title")}
        </Link>
      </StoreHeading>
      <SearchForm
        idPrefix="product"
        search={{ label: t("products.search"), value: name }}
        filter={{
          name: "type",
          label: t("products.type"),
          value: type,
          allLabel: t("products.allTypes"),
          options: PRODUCT_TYPES.map((p) => ({ value: p, label: t(`productTypes.${p}`) })),
        }}
        submit={{ label: t("services.apply"), className: "btn-primary" }}
      >
        {name || type ? (
          <Link to="/g/home/AppStore/Products" className="btn-secondary">
            {t("services.reset")}
          </Link>
        ) : null}
      </SearchForm>
      <Catalogue page={page} empty={t("products.empty")}>
        {page.rows.map((p) => (
          <CatalogueCard
            key={p.productId}
            kind="product"
            id={p.productId}
            name={p.name}
            hasCover={p.hasCover}
            testId="store-product"
          >
            <h2 className="font-semibold" data-user-content="">
              <Link to={`/g/home/AppStore/Product?id=${p.productId}`} className="link">
                {p.name}
              </Link>
            </h2>
            <p className="text-xs text-slate-500">
              {t(`productTypes.${p.productType}`)}
              {p.company ? ` · ${t("products.company")}` : ""} · {t("products.owner")}:{" "}
              <span data-user-content="">{p.owner}</span>
            </p>
            <p className="line-clamp-2 text-sm text-slate-700" data-user-content="">
              {p.brief}
            </p>
            <p className="text-sm">
              <span className="font-semibold">{formatUsd(p.suggestedPriceCents, language)}</span>{" "}
              {t(`payModes.${p.payMode}`)} · {t("products.listed")}: {formatDate(p.listedAt, language)} ·{" "}
              <span data-testid="followers">{t("products.followers", { count: p.followers })}</span>
            </p>
          </CatalogueCard>
        ))}
      </Catalogue>
    </div>
  );
}
