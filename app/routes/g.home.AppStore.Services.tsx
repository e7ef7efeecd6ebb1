import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { INDUSTRIES } from "@contract/service-codes";
import { Pagination } from "~/components/Pagination";
import { Cover, ParticipationBadge, Rating, positiveParam } from "~/components/store/bits";
import { apiFor, requireUser } from "~/lib/api.server";
import { formatDate } from "~/lib/format";
import { pageTitle } from "~/lib/meta";

export const handle = {
  i18n: ["store", "wizard"],
  breadcrumb: [{ key: "menu.appStore" }, { key: "menu.storeServices" }],
};
export const meta = pageTitle("storeServices");

const PAGE_SIZE = 10;

/** SPEC §2 App store, all services: running, public, joinable; search, industry filter, pagination. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const name = (url.searchParams.get("name") ?? "").trim().slice(0, 50);
  const industryParam = url.searchParams.get("industry") ?? "";
  const industry = (INDUSTRIES as readonly string[]).includes(industryParam) ? industryParam : "";
  const page = positiveParam(url.searchParams.get("page")) ?? 1;
  const data = await apiFor(request, viewer).load("/sys/store/services", { pageIndex: page, pageSize: PAGE_SIZE, name: name || undefined, industry: industry || undefined });
  return json({ ...data, name, industry, language: viewer.language });
}

export default function StoreServices() {
  const { page, name, industry, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("store");
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold">{t("services.title")}</h1>
        <p className="text-sm text-slate-600">{t("services.intro")}</p>
      </div>
      <Form method="get" className="flex flex-wrap items-end gap-3" role="search">
        <div>
          <label htmlFor="store-name" className="label">{t("services.search")}</label>
          <input id="store-name" name="name" defaultValue={name} maxLength={50} className="input" />
        </div>
        <div>
          <label htmlFor="store-industry" className="label">{t("services.industry")}</label>
          <select id="store-industry" name="industry" defaultValue={industry} className="input">
            <option value="">{t("services.allIndustries")}</option>
            {INDUSTRIES.map((i) => <option key={i} value={i}>{t(`wizard:industries.${i}`)}</option>)}
          </select>
        </div>
        <button type="submit" className="btn-primary">{t("services.apply")}</button>
        {name || industry ? <Link to="/g/home/AppStore/Services" className="btn-secondary">{t("services.reset")}</Link> : null}
      </Form>
      {page.rows.length === 0 ? (
        <p className="card text-center text-slate-500">{t("services.empty")}</p>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {page.rows.map((s) => (
            <li key={s.appId} className="card flex gap-4 p-4" data-testid="store-service">
              <Cover kind="app" id={s.appId} name={s.name} hasCover={s.hasCover} />
              <div className="min-w-0 flex-1 space-y-1">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h2 className="font-semibold">
                    <Link to={`/g/home/AppStore/Service?appId=${s.appId}`} className="link">{s.name}</Link>
                  </h2>
                  <ParticipationBadge participation={s.participation} own={s.own} />
                </div>
                <p className="line-clamp-2 text-sm text-slate-700">{s.description}</p>
                <p className="text-xs text-slate-500">
                  {t("services.publisher")}: {s.publisher}
                  {s.industry ? ` · ${t(`wizard:industries.${s.industry}`, { defaultValue: s.industry })}` : ""} · {t("services.published")}: {formatDate(s.publishedAt, language)}
                </p>
                <p className="text-sm">
                  <Rating average={s.ratingAverage} count={s.ratingCount} /> · <span data-testid="followers">{t("services.followers", { count: s.followers })}</span>
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
