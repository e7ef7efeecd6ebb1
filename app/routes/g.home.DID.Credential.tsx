import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { Field } from "#app/components/details.tsx";
import { FormErrors } from "#app/components/form-parts.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { Claims, CredentialState, Mono } from "#app/components/did/views.tsx";
import { DID_HOME, credentialHref } from "#app/lib/did-urls.ts";
import { apiFor, redirectAfter, requireUser } from "#app/lib/api.server.ts";
import { idParam } from "#app/lib/did.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["did", "services"],
  breadcrumb: [
    { key: "titles.did", to: DID_HOME },
    { key: "titles.didCredentials", to: `${DID_HOME}/Credentials` },
    { key: "titles.didCredential" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("didCredential");

const INTENTS = ["revoke"] as const;
type ActionData = { kind: "confirm" } | { kind: "refused"; messageKey: string };

/** A credential the user issued or holds: what it says, its JWT to copy or download, and (its issuer only) revocation. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const credential = await apiFor(request, viewer).load("/sys/did/credentials/detail", {
    credentialId: idParam(request, "credentialId"),
  });
  return json({ credential, language: viewer.language });
}

/** Revoking asks first (a dialog with JavaScript, a confirm step without); the backend lets only the issuer revoke. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const credentialId = idParam(request, "credentialId");
  const formData = await request.formData();
  intentOf(formData, INTENTS);
  if (formData.get("confirmed") !== "yes") return json<ActionData>({ kind: "confirm" });
  return redirectAfter(
    request,
    await apiFor(request, viewer).call("/sys/did/credentials/revoke", { credentialId }),
    credentialHref(credentialId),
    "did:credential.revoked",
  );
}

export default function CredentialPage() {
  const { credential: c, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("did");
  const here = credentialHref(c.credentialId);
  const jwtFile = `data:application/jwt;charset=utf-8,${encodeURIComponent(c.jwt ?? "")}`;
  return (
    <div className="max-w-4xl space-y-4">
      <PageHeader
        title={t("credential.title", { kind: t(`kind.${c.kind}`) })}
        badges={<CredentialState revokedAt={c.revokedAt} expiresAt={c.expiresAt} />}
      />
      {actionData?.kind === "confirm" ? (
        <IntentConfirmStep
          id="revoke-confirm"
          title={t("revoke.title")}
          question={t("revoke.question")}
          intent="revoke"
          fields={{}}
          action={here}
          cancelTo={here}
          confirmLabel={t("revoke.confirm")}
          cancelLabel={t("common:actions.cancel")}
          danger
        />
      ) : null}
      <div className="card">
        <dl className="grid gap-4 sm:grid-cols-2">
          <Field label={t("credential.issuer")}>
            <Mono testId="credential-issuer">{c.issuerDid}</Mono>
            {c.issuerName ? (
              <span className="block text-xs text-slate-600">{c.issuerName}</span>
            ) : (
              <span className="block text-xs text-slate-600">{t("credential.platform")}</span>
            )}
          </Field>
          <Field label={t("credential.subject")}>
            <Mono>{c.subjectDid}</Mono>
          </Field>
          <Field label={t("credential.issuedAt")}>{formatDate(c.issuedAt, language, true)}</Field>
          <Field label={t("credential.validUntil")}>{formatDate(c.expiresAt, language, true)}</Field>
          <Field label={t("credential.revocation")}>
            {c.revokedAt
              ? t("credential.revokedAt", { at: formatDate(c.revokedAt, language, true) })
              : t("verify.status.active")}
            <span className="block text-xs text-slate-600">
              <Mono>{`${c.statusListUrl} #${c.statusIndex}`}</Mono>
            </span>
          </Field>
        </dl>
        <h2 className="mb-2 mt-4 text-sm font-semibold">{t("credential.claims")}</h2>
        <Claims claims={c.claims} />
      </div>
      <section className="card space-y-2" aria-labelledby="jwt-title">
        <h2 id="jwt-title" className="text-lg font-semibold">
          {t("credential.jwt")}
        </h2>
        <p className="text-sm text-slate-600">{t("credential.jwtHint")}</p>
        <label htmlFor="credential-jwt" className="sr-only">
          {t("credential.jwt")}
        </label>
        <textarea
          id="credential-jwt"
          readOnly
          rows={6}
          className="input font-mono text-xs"
          value={c.jwt ?? ""}
          data-testid="credential-jwt"
        />
        <a className="link text-sm" href={jwtFile} download={`credential-${c.credentialId}.jwt`}>
          {t("credential.download")}
        </a>
      </section>
      {c.mine && !c.revokedAt ? (
        <Form method="post" id="revoke-form" className="card space-y-2">
          <FormErrors errors={actionData?.kind === "refused" ? [actionData.messageKey] : undefined} />
          <p className="text-sm text-slate-600">{t("revoke.intro")}</p>
          <ConfirmSubmit
            formId="revoke-form"
            name="intent"
            value="revoke"
            label={t("revoke.button")}
            className="btn-danger"
            title={t("revoke.title")}
            question={t("revoke.question")}
            confirmLabel={t("revoke.confirm")}
          />
        </Form>
      ) : null}
      <Link to={`${DID_HOME}/Credentials`} className="link text-sm">
        {t("credential.back")}
      </Link>
    </div>
  );
}
