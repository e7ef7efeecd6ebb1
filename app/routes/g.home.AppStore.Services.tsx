import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { INDUSTRIES } from "#contract/service-codes.ts";
import { SearchForm } from "#app/components/SearchForm.tsx";
import { Catalogue, CatalogueCard, ParticipationBadge, Rating, StoreHeading } from "#app/components/store/listing.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { oneOf, pageParam, searchParam } from "#app/lib/params.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["store", "wizard"],
  breadcrumb: [{ key: "menu.appStore" }, { key: "menu.storeServices" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("storeServices");

const PAGE_SIZE = 10;

/** SPEC §2 App store, all services: running, public, joinable; search, industry filter, pagination. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const name = searchParam(url.searchParams);
  const industry = oneOf(INDUSTRIES, url.searchParams.get("industry")) ?? "";
  const page = pageParam(url);
  const data = await apiFor(request, viewer).load("/sys/store/services", {
    pageIndex: page,
    pageSize: PAGE_SIZE,
    name: name || undefined,
    industry: industry || undefined,
  });
  return json({ ...data, name, industry, language: viewer.language });
}

export default function StoreServices() {
  const { page, name, industry, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("store");
  return (
    <div className="space-y-4">
      <StoreHeading title={t("services.title")} intro={t("services.intro")} />
      <SearchForm
        idPrefix="store"
        search={{ label: t("services.search"), value: name }}
        filter={{
          name: "industry",
          label: t("services.industry"),
          value: industry,
          allLabel: t("services.allIndustries"),
          options: INDUSTRIES.map((i) => ({ value: i, label: t(`wizard:industries.${i}`) })),
        }}
        submit={{ label: t("services.apply"), className: "btn-primary" }}
      >
        {name || industry ? (
          <Link to="/g/home/AppStore/Services" className="btn-secondary">
            {t("services.reset")}
          </Link>
        ) : null}
      </SearchForm>
      <Catalogue page={page} empty={t("services.empty")}>
        {page.rows.map((s) => (
          <CatalogueCard
            key={s.appId}
            kind="app"
            id={s.appId}
            name={s.name}
            hasCover={s.hasCover}
            testId="store-service"
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 className="font-semibold" data-user-content="">
                <Link to={`/g/home/AppStore/Service?appId=${s.appId}`} className="link">
                  {s.name}
                </Link>
              </h2>
              <ParticipationBadge participation={s.participation} own={s.own} />
            </div>
            <p className="line-clamp-2 text-sm text-slate-700" data-user-content="">
              {s.description}
            </p>
            <p className="text-xs text-slate-500">
              {t("services.publisher")}: <span data-user-content="">{s.publisher}</span>
              {s.industry ? ` · ${t(`wizard:industries.${s.industry}`, { defaultValue: s.industry })}` : ""} ·{" "}
              {t("services.published")}: {formatDate(s.publishedAt, language)}
            </p>
            <p className="text-sm">
              <Rating average={s.ratingAverage} count={s.ratingCount} /> ·{" "}
              <span data-testid="followers">{t("services.followers", { count: s.followers })}</span>
            </p>
          </CatalogueCard>
        ))}
      </Catalogue>
    </div>
  );
}
