import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DesktopLinkForm } from "#app/components/MobileNotice.tsx";
import { useTranslation } from "react-i18next";
import { apiFor, getViewer } from "#app/lib/api.server.ts";
import { formatNumber, formatUsd } from "#app/lib/format.ts";
import { inLanguage, nodeLabel, type Language } from "#app/lib/i18n.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["home", "services"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("landing");

/** The landing page of the network (SPEC §2 /g/main/index): what it offers, its city nodes, how to start. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const cityNodes = await apiFor(request, viewer, { portalPage: true }).load("/anon/platform/cityNodes", {});
  return json(
    { cityNodes, signedIn: !!viewer.user, mobile: viewer.mobile, language: viewer.language },
    { headers: { "Cache-Control": "private, max-age=0, must-revalidate" } },
  );
}

const OFFERS = ["consortium", "publicChain", "ipfs", "crossChain", "nodes", "store"] as const;
const STEPS = ["register", "activate", "publish", "operate"] as const;

export default function LandingPage() {
  const { cityNodes, signedIn, mobile, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("home");
  const lang = language as Language;
  return (
    <>
      <section className="bg-gradient-to-br from-brand-900 to-brand-600 text-white">
        <div className="mx-auto max-w-6xl px-4 py-16">
          <h1 className="max-w-3xl text-4xl font-bold leading-tight">{t("landing.title")}</h1>
          <p className="mt-4 max-w-2xl text-lg text-brand-100">{t("landing.subtitle")}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            {signedIn ? (
              <Link to="/g/home/index" className="btn bg-white text-brand-900 hover:bg-brand-50">
                {t("landing.console")}
              </Link>
            ) : (
              <>
                {mobile ? null : (
                  <Link to="/g/main/register" className="btn bg-white text-brand-900 hover:bg-brand-50">
                    {t("landing.start")}
                  </Link>
                )}
                <Link to="/g/main/Login/Logins" className="btn border border-white/60 text-white hover:bg-white/10">
                  {t("landing.login")}
                </Link>
              </>
            )}
            <Link to="/g/main/documentation" className="btn text-white underline-offset-2 hover:underline">
              {t("landing.docs")}
            </Link>
          </div>
          {mobile && !signedIn ? (
            // SPEC §2: registration is not a page a phone may open; say so, and mail its link for a desktop.
            <div className="mt-6 max-w-md rounded-lg bg-white p-4 text-slate-800" data-testid="mobile-register">
              <h2 className="font-semibold">{t("landing.start")}</h2>
              <p className="mt-1 text-sm">{t("common:mobile.registerHint")}</p>
              <DesktopLinkForm path="/g/main/register" className="mt-3" />
            </div>
          ) : null}
          <dl className="mt-12 grid max-w-xl grid-cols-3 gap-6">
            <div>
              <dt className="text-sm text-brand-100">{t("landing.stats.nodes")}</dt>
              <dd className="text-3xl font-semibold tabular-nums">{cityNodes.length}</dd>
            </div>
            <div>
              <dt className="text-sm text-brand-100">{t("landing.stats.tps")}</dt>
              <dd className="text-3xl font-semibold tabular-nums">
                {formatNumber(
                  cityNodes.reduce((s, n) => s + n.availableTps, 0),
                  lang,
                )}
              </dd>
            </div>
            <div>
              <dt className="text-sm text-brand-100">{t("landing.stats.capacity")}</dt>
              <dd className="text-3xl font-semibold tabular-nums">
                {formatNumber(
                  cityNodes.reduce((s, n) => s + n.capacityGb, 0),
                  lang,
                )}
              </dd>
            </div>
          </dl>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-12" aria-labelledby="offers">
        <h2 id="offers" className="text-2xl font-semibold">
          {t("landing.offersTitle")}
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {OFFERS.map((key) => (
            <li key={key} className="card">
              <h3 className="font-semibold text-slate-900">{t(`landing.offers.${key}.title`)}</h3>
              <p className="mt-2 text-sm text-slate-600">{t(`landing.offers.${key}.body`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="mx-auto max-w-6xl px-4 pb-12" aria-labelledby="nodes">
        <h2 id="nodes" className="text-2xl font-semibold">
          {t("landing.nodesTitle")}
        </h2>
        <p className="mt-2 text-sm text-slate-600">{t("landing.nodesIntro")}</p>
        {cityNodes.length === 0 ? (
          <p className="mt-6 card text-center text-slate-500">{t("common:empty.noData")}</p>
        ) : (
          // On a phone the table scrolls sideways: the region takes the focus so that a keyboard can scroll it (WCAG 2.1.1).
          <div
            className="mt-6 overflow-x-auto rounded-lg border border-slate-200 bg-white"
            role="region"
            aria-label={t("landing.nodesTable")}
            tabIndex={0}
          >
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-slate-600">
                <tr>
                  <th scope="col" className="px-4 py-2">
                    {t("landing.nodes.name")}
                  </th>
                  <th scope="col" className="px-4 py-2">
                    {t("landing.nodes.operator")}
                  </th>
                  <th scope="col" className="px-4 py-2">
                    {t("landing.nodes.cloud")}
                  </th>
                  <th scope="col" className="px-4 py-2 text-right">
                    {t("landing.nodes.tps")}
                  </th>
                  <th scope="col" className="px-4 py-2 text-right">
                    {t("landing.nodes.capacity")}
                  </th>
                  <th scope="col" className="px-4 py-2 text-right">
                    {t("landing.nodes.peers")}
                  </th>
                  <th scope="col" className="px-4 py-2 text-right">
                    {t("landing.nodes.traffic")}
                  </th>
                  <th scope="col" className="px-4 py-2 text-right">
                    {t("landing.nodes.tpsMonth")}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {cityNodes.map((n) => (
                  <tr key={n.nodeId}>
                    <th scope="row" className="px-4 py-2 text-left font-medium text-slate-900">
                      {nodeLabel(n, lang)}
                      <div className="text-xs font-normal text-slate-500">
                        {inLanguage(n.address, n.addressZh, lang)}
                      </div>
                    </th>
                    <td className="px-4 py-2">{inLanguage(n.operator, n.operatorZh, lang)}</td>
                    <td className="px-4 py-2">{inLanguage(n.cloudProvider, n.cloudProviderZh, lang)}</td>
                    <td className="px-4 py-2 text-right">{formatNumber(n.availableTps, lang)}</td>
                    <td className="px-4 py-2 text-right">{formatNumber(n.capacityGb, lang)}</td>
                    <td className="px-4 py-2 text-right">{n.peers}</td>
                    <td className="px-4 py-2 text-right">{formatUsd(n.trafficPricePerGbCents, lang)}</td>
                    <td className="px-4 py-2 text-right">{formatUsd(n.tpsPricePerMonthCents, lang)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="bg-white" aria-labelledby="start">
        <div className="mx-auto max-w-6xl px-4 py-12">
          <h2 id="start" className="text-2xl font-semibold">
            {t("landing.startTitle")}
          </h2>
          <ol className="mt-6 grid gap-4 md:grid-cols-4">
            {STEPS.map((key, i) => (
              <li key={key} className="rounded-lg border border-slate-200 p-4">
                <span className="text-sm font-semibold text-brand-600">{i + 1}</span>
                <h3 className="mt-1 font-semibold">{t(`landing.steps.${key}.title`)}</h3>
                <p className="mt-1 text-sm text-slate-600">{t(`landing.steps.${key}.body`)}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>
    </>
  );
}
