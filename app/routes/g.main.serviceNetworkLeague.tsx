import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { pickText } from "#contract/community-codes.ts";
import { FallbackBadge } from "#app/components/community/content.tsx";
import { apiFor, getViewer } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["community"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("serviceNetworkLeague");

/** SPEC §2 serviceNetworkLeague (public): the partners of the network, from the database, in their order. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const partners = await apiFor(request, viewer).load("/anon/community/partners", {});
  return json({
    partners: partners.map((p) => {
      const name = pickText(p.nameEn, p.nameZh, viewer.language);
      const description = pickText(p.descriptionEn, p.descriptionZh, viewer.language);
      return {
        partnerId: p.partnerId,
        name: name.text,
        fallback: name.fallback,
        description: description.text,
        link: p.link,
        hasLogo: p.hasLogo,
      };
    }),
  });
}

export default function ServiceNetworkLeague() {
  const { partners } = useLoaderData<typeof loader>();
  const { t } = useTranslation("community");
  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-10">
      <h1 className="text-3xl font-semibold text-slate-900">{t("partners.title")}</h1>
      <p className="text-slate-600">{t("partners.intro")}</p>
      {partners.length === 0 ? (
        <EmptyState message={t("partners.empty")} />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {partners.map((p) => (
            <li key={p.partnerId} className="card flex gap-4" data-testid="partner">
              {p.hasLogo ? (
                <img
                  src={`/g/main/partnerLogo?id=${p.partnerId}`}
                  alt=""
                  width={64}
                  height={64}
                  className="h-16 w-16 shrink-0 rounded object-contain"
                />
              ) : (
                <span
                  aria-hidden="true"
                  className="flex h-16 w-16 shrink-0 items-center justify-center rounded bg-brand-50 text-2xl font-semibold text-brand-700"
                >
                  {p.name.slice(0, 1)}
                </span>
              )}
              <div className="min-w-0 space-y-1">
                <h2 className="flex flex-wrap items-center gap-2 font-semibold">
                  {p.link ? (
                    <a href={p.link} target="_blank" rel="noopener noreferrer" className="link">
                      {p.name}
                    </a>
                  ) : (
                    p.name
                  )}
                  <FallbackBadge fallback={p.fallback} />
                </h2>
                {p.description ? <p className="text-sm text-slate-600">{p.description}</p> : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
