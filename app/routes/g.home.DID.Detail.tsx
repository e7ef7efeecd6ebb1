import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field } from "#app/components/details.tsx";
import { Mono } from "#app/components/did/views.tsx";
import { DID_HOME } from "#app/lib/did-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { idParam } from "#app/lib/did.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["did", "services"],
  breadcrumb: [{ key: "titles.did", to: DID_HOME }, { key: "titles.didDetail" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("didDetail", (d) => d?.did?.label);

/** One of the user's DIDs with its document (the public key only: a private key the portal holds is never shown). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const did = await apiFor(request, viewer).load("/sys/did/identifiers/detail", { didId: idParam(request, "didId") });
  return json({ did, language: viewer.language });
}

export default function DidDetail() {
  const { did, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("did");
  return (
    <div className="max-w-4xl space-y-4">
      <PageHeader title={t("detail.title", { label: did.label })} />
      <div className="card">
        <dl className="grid gap-4 sm:grid-cols-2">
          <Field label={t("did.did")}>
            <Mono testId="did-value">{did.did}</Mono>
          </Field>
          <Field label={t("did.method")}>
            <code className="text-xs">{t(`method.${did.method}`)}</code>
          </Field>
          <Field label={t("did.keyType")}>{did.keyType}</Field>
          <Field label={t("did.custody")}>{t(`custody.${did.custody}`)}</Field>
          <Field label={t("did.publicKey")}>
            <Mono>{did.publicKeyMultibase}</Mono>
          </Field>
          <Field label={t("did.created")}>{formatDate(did.createdAt, language, true)}</Field>
          {did.documentUrl ? (
            <Field label={t("did.documentUrl")}>
              <a className="link break-all" href={did.documentUrl}>
                {did.documentUrl}
              </a>
            </Field>
          ) : null}
        </dl>
        <p className="mt-4 text-sm text-slate-600">{t(`detail.custodyNote.${did.custody}`)}</p>
      </div>
      <section className="card" aria-labelledby="did-document">
        <h2 id="did-document" className="mb-2 text-lg font-semibold">
          {t("detail.document")}
        </h2>
        <pre
          className="max-h-[32rem] overflow-auto rounded bg-slate-50 p-3 text-xs"
          tabIndex={0}
          data-testid="did-document"
        >
          {JSON.stringify(did.document, null, 2)}
        </pre>
      </section>
      <Link to={DID_HOME} className="link text-sm">
        {t("detail.back")}
      </Link>
    </div>
  );
}
