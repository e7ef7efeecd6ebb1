import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import type { CredentialRecord } from "#contract/did.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { Claims, CredentialState, Mono } from "#app/components/did/views.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { apiFor, badRequest, redirectAfter, requireOperator } from "#app/lib/api.server.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam } from "#app/lib/params.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["did", "services"], breadcrumb: [{ key: "titles.opsCredentials" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("opsCredentials");

const PAGE_SIZE = 20;
const INTENTS = ["revoke"] as const;
const revokeSchema = z.object({ credentialId: z.coerce.number().int().positive() });

/**
 * Operations: the credentials the platform's did:web issued ("enterprise certified"), the latest first, each
 * with Revoke (confirmed: a dialog with JavaScript, a confirm step without). Revoking sets the credential's bit
 * in the platform's status list, so every later verification says revoked (docs/decisions/043). Operators only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const data = await apiFor(request, viewer).load("/sys/ops/did/credentials", {
    pageIndex: pageParam(new URL(request.url)),
    pageSize: PAGE_SIZE,
  });
  return json({ ...data, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const form = await request.formData();
  intentOf(form, INTENTS);
  const parsed = revokeSchema.safeParse({ credentialId: form.get("credentialId") });
  if (!parsed.success) throw badRequest();
  if (form.get("confirmed") !== "yes") return json({ confirm: parsed.data.credentialId });
  const url = new URL(request.url);
  return redirectAfter(
    request,
    await apiFor(request, viewer).call("/sys/ops/did/revoke", parsed.data),
    url.pathname + url.search,
    "did:ops.revoked",
  );
}

function CredentialRow({ c, language }: { c: CredentialRecord; language: Language }) {
  const { t } = useTranslation("did");
  const formId = `revoke-${c.credentialId}`;
  return (
    <tr data-testid="ops-credential">
      <td className={`${td} max-w-xs`}>
        <Mono>{c.subjectDid}</Mono>
      </td>
      <td className={td}>
        <Claims claims={c.claims} />
      </td>
      <td className={td}>{formatDate(c.issuedAt, language, true, false)}</td>
      <td className={td}>{formatDate(c.expiresAt, language, true, false)}</td>
      <td className={td}>
        <CredentialState revokedAt={c.revokedAt} expiresAt={c.expiresAt} />
      </td>
      <td className={td}>
        {c.revokedAt ? null : (
          <Form method="post" id={formId}>
            <input type="hidden" name="credentialId" value={c.credentialId} />
            <ConfirmSubmit
              formId={formId}
              name="intent"
              value="revoke"
              label={t("revoke.button")}
              className="btn-danger"
              title={t("ops.confirmTitle")}
              question={t("ops.question")}
              confirmLabel={t("revoke.confirm")}
            />
          </Form>
        )}
      </td>
    </tr>
  );
}

export default function OperationsCredentials() {
  const { page, language } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const { t } = useTranslation("did");
  const location = useLocation();
  const here = location.pathname + location.search;
  return (
    <section className="space-y-4">
      <div className="space-y-1">
        <h2 className="text-lg font-semibold">{t("ops.title")}</h2>
        <p className="text-sm text-slate-600">{t("ops.intro")}</p>
      </div>
      {reply ? (
        <IntentConfirmStep
          id="ops-revoke-confirm"
          title={t("ops.confirmTitle")}
          question={t("ops.question")}
          intent="revoke"
          fields={{ credentialId: reply.confirm }}
          action={here}
          cancelTo={here}
          confirmLabel={t("revoke.confirm")}
          cancelLabel={t("common:actions.cancel")}
          danger
        />
      ) : null}
      {page.rows.length === 0 ? (
        <EmptyState message={t("ops.empty")} />
      ) : (
        <Table
          label={t("ops.title")}
          regionTestId="ops-credentials"
          head={[
            t("credential.subject"),
            t("credential.claims"),
            zoneHeader(t, t("credential.issuedAt")),
            zoneHeader(t, t("credential.validUntil")),
            t("credential.state.label"),
            "",
          ]}
        >
          {page.rows.map((c) => (
            <CredentialRow key={c.credentialId} c={c} language={language} />
          ))}
        </Table>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </section>
  );
}
