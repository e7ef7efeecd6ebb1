import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ErrorView } from "#app/components/ErrorView.tsx";
import { apiReference } from "#app/lib/api-reference.server.ts";
import { getViewer } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["docs"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("apiReference");

/**
 * The API reference (issue 15; docs/decisions/042): every /vueapi path with who may call it and the JSON
 * Schema of its payload and `data`, generated from contract/paths.ts (app/lib/api-reference.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await getViewer(request);
  return json({ groups: apiReference() }, { headers: { "Cache-Control": "public, max-age=300" } });
}

export default function ApiReference() {
  const { groups } = useLoaderData<typeof loader>();
  const { t } = useTranslation("docs");
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <p className="text-sm">
        <Link className="link" to="/g/main/documentation">
          {t("apiReference.back")}
        </Link>
      </p>
      <h1 className="text-3xl font-semibold">{t("apiReference.title")}</h1>
      <p className="text-slate-700">{t("apiReference.intro")}</p>
      <nav aria-label={t("apiReference.groups")}>
        <ul className="flex flex-wrap gap-2 text-sm">
          {groups.map((g) => (
            <li key={g.group}>
              <a className="link" href={`#${g.group}`}>
                {t(`apiReference.group.${g.group}`, { defaultValue: g.group })} ({g.paths.length})
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {groups.map((g) => (
        <section key={g.group} id={g.group} aria-labelledby={`h-${g.group}`} className="space-y-2">
          <h2 id={`h-${g.group}`} className="text-xl font-semibold">
            {t(`apiReference.group.${g.group}`, { defaultValue: g.group })}
          </h2>
          {g.paths.map((p) => (
            <details key={p.path} className="rounded-md border border-slate-200 px-3 py-2" data-testid="api-path">
              <summary className="cursor-pointer">
                <code className="font-semibold">POST /vueapi{p.path}</code>
                <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                  {t(`apiReference.auth.${p.auth}`)}
                </span>
              </summary>
              <div className="mt-2 grid gap-3 md:grid-cols-2">
                <div>
                  <h3 className="text-sm font-semibold">{t("apiReference.payload")}</h3>
                  <pre
                    className="mt-1 max-h-96 overflow-auto rounded bg-slate-900 p-2 text-xs text-slate-100"
                    tabIndex={0}
                  >
                    {p.payload}
                  </pre>
                </div>
                <div>
                  <h3 className="text-sm font-semibold">{t("apiReference.data")}</h3>
                  <pre
                    className="mt-1 max-h-96 overflow-auto rounded bg-slate-900 p-2 text-xs text-slate-100"
                    tabIndex={0}
                  >
                    {p.data}
                  </pre>
                </div>
              </div>
            </details>
          ))}
        </section>
      ))}
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorView />;
}
