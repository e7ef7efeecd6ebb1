import { FormProvider, getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DDC_QRCODE_PATH, DDC_VIEW_PATH, ddcUnlockFormSchema } from "#contract/ddc.ts";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { HistoryTable, MetadataList, VaultLink } from "#app/components/ddc/details.tsx";
import { apiFor, failureStatus, getViewer } from "#app/lib/api.server.ts";
import { ddcIdParam, passFor, rememberPass } from "#app/lib/ddc.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["ddc"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("ddcView", (data) => data?.view?.name);

/**
 * ddc-view (SPEC §2, public, mobile): a DDC's owner (ownerOf read on chain), metadata, file and on-chain history
 * by id. A DDC with a QR-code password (§3) asks for it first: a plain POST form; a correct password gives a pass
 * this browser keeps in a signed cookie (the backend checks it each time and limits wrong guesses).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const ddcId = ddcIdParam(request);
  const view = await apiFor(request, viewer).load("/anon/ddc/view", { ddcId, pass: await passFor(request, ddcId) });
  return json({ view, vaultUrl: getEnv().DDC_VAULT_URL, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await getViewer(request);
  const ddcId = ddcIdParam(request);
  const formData = await request.formData();
  intentOf(formData, ["unlock"]);
  const submission = parseWithZod(formData, { schema: ddcUnlockFormSchema });
  if (submission.status !== "success")
    return json({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  const result = await apiFor(request, viewer).call("/anon/ddc/view", { ddcId, password: submission.value.password });
  if (!result.ok)
    return json(
      { result: replyWithFailure(submission, result, { hideFields: ["password"] }) },
      { status: failureStatus(result) },
    );
  const headers = new Headers();
  if (!result.data.locked && result.data.pass)
    headers.append("Set-Cookie", await rememberPass(request, ddcId, result.data.pass));
  return redirect(`${DDC_VIEW_PATH}?ddcId=${ddcId}`, { headers });
}

export default function DdcView() {
  const { view, vaultUrl, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("ddc");
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8">
      <div>
        <p className="text-sm text-slate-600">{t("view.kicker")}</p>
        <h1 className="text-2xl font-semibold" data-testid="ddc-view-name">
          {view.name}
        </h1>
      </div>
      {view.locked ? (
        <UnlockForm ddcId={view.ddcId} />
      ) : (
        <>
          <section className="card space-y-4" data-testid="ddc-view-details">
            <dl className="grid gap-4 sm:grid-cols-2">
              <Item label={t("fields.owner")}>
                <span className="break-all font-mono text-xs" data-testid="ddc-view-owner">
                  {view.owner ?? "—"}
                </span>
              </Item>
              <Item label={t("fields.tokenId")}>
                <span className="tabular-nums">{view.tokenId}</span>
              </Item>
              <Item label={t("fields.contract")}>
                <span className="break-all font-mono text-xs">{view.contractAddress ?? "—"}</span>
              </Item>
              <Item label={t("fields.chainId")}>{view.chainId ?? "—"}</Item>
              <Item label={t("fields.tokenUri")}>
                <span className="break-all font-mono text-xs">{view.tokenUri ?? "—"}</span>
              </Item>
              <Item label={t("fields.minted")}>{formatDate(view.mintedAt, language, true)}</Item>
            </dl>
            {view.description ? <p className="whitespace-pre-line text-sm">{view.description}</p> : null}
            <MetadataList metadata={view.metadata} />
          </section>
          <section className="card space-y-2">
            <h2 className="text-lg font-semibold">{t("fields.file")}</h2>
            {view.fileMime.startsWith("image/") ? (
              <img
                src={`${DDC_VIEW_PATH}/file?ddcId=${view.ddcId}`}
                alt={view.name}
                className="max-h-96 rounded-md border border-slate-200"
              />
            ) : null}
            <p className="text-sm">
              <a className="link" href={`${DDC_VIEW_PATH}/file?ddcId=${view.ddcId}`} data-testid="ddc-view-file">
                {view.fileName}
              </a>{" "}
              <span className="text-xs text-slate-600">
                ({view.fileMime}, {view.fileSize.toLocaleString(language)} B
                {view.fileCid ? `, IPFS ${view.fileCid}` : ""})
              </span>
            </p>
          </section>
          <section className="space-y-2">
            <h2 className="text-lg font-semibold">{t("history.title")}</h2>
            <HistoryTable history={view.history} language={language} />
          </section>
        </>
      )}
      <p className="flex flex-wrap gap-4 text-sm">
        <a className="link" href={`${DDC_QRCODE_PATH}?ddcId=${view.ddcId}`}>
          {t("detail.qrCode")}
        </a>
        <VaultLink href={vaultUrl} />
      </p>
    </div>
  );
}

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-1">{children}</dd>
    </div>
  );
}

function UnlockForm({ ddcId }: { ddcId: number }) {
  const { t } = useTranslation("ddc");
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(ddcUnlockFormSchema, actionData?.result, {
    id: "ddc-unlock",
    defaultValue: { ddcId: String(ddcId) },
  });
  return (
    <section className="card max-w-md space-y-3" data-testid="ddc-locked">
      <p className="text-sm text-slate-600">{t("view.locked")}</p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="space-y-3">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input {...getInputProps(fields.ddcId, { type: "hidden" })} key={fields.ddcId.key} />
          <TextField field={fields.password} type="password" label={t("view.password")} autoComplete="off" />
          <SubmitButton intent="unlock" className="btn-primary w-full">
            {t("view.unlock")}
          </SubmitButton>
        </Form>
      </FormProvider>
    </section>
  );
}
