import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DDC_QRCODE_PATH, DDC_VIEW_PATH, ddcPasswordFormSchema, ddcTransferFormSchema } from "#contract/ddc.ts";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { Field } from "#app/components/details.tsx";
import { DdcStatusBadge, HistoryTable, MetadataList, VaultLink } from "#app/components/ddc/details.tsx";
import { DDC_HOME, ddcDetailHref } from "#app/lib/ddc-urls.ts";
import { PasswordForm, TransferForm } from "#app/components/ddc/DetailForms.tsx";
import { apiFor, failureStatus, requireUser } from "#app/lib/api.server.ts";
import { ddcIdParam } from "#app/lib/ddc.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { DdcStatus } from "#contract/ddc-codes.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["ddc", "services"],
  breadcrumb: [{ key: "titles.ddc", to: DDC_HOME }, { key: "titles.ddcDetail" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("ddcDetail", (data) => data?.ddc?.name);

const INTENTS = ["transfer", "password", "clearPassword"] as const;

/** One DDC (docs/decisions/045): its token, file, metadata, owner and history read on chain; transfer and QR-code password. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const ddcId = ddcIdParam(request);
  const [ddc, options] = await Promise.all([api.load("/sys/ddc/detail", { ddcId }), api.load("/sys/ddc/options", {})]);
  return json({
    ddc,
    transferFeeCents: options.transferFeeCents,
    vaultUrl: getEnv().DDC_VAULT_URL,
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const ddcId = ddcIdParam(request);
  const here = ddcDetailHref(ddcId);
  const formData = await request.formData();
  const intent = intentOf(formData, INTENTS);
  if (intent === "transfer") {
    const submission = parseWithZod(formData, { schema: ddcTransferFormSchema });
    if (submission.status !== "success")
      return json({ intent, result: submission.reply(), confirm: null }, { status: 400 });
    if (formData.get("confirmed") !== "yes")
      return json({ intent, result: submission.reply(), confirm: { ddcId: String(ddcId), to: submission.value.to } });
    const result = await api.call("/sys/ddc/transfer", { ddcId, to: submission.value.to });
    if (!result.ok)
      return json(
        { intent, result: replyWithFailure(submission, result), confirm: null },
        { status: failureStatus(result) },
      );
    return redirectWithFlash(request, here, {
      kind: "success",
      key: "ddc:transfer.done",
      params: { to: submission.value.to },
    });
  }
  if (intent === "password") {
    const submission = parseWithZod(formData, { schema: ddcPasswordFormSchema });
    if (submission.status !== "success")
      return json({ intent, result: submission.reply({ hideFields: ["password"] }), confirm: null }, { status: 400 });
    const result = await api.call("/sys/ddc/password", { ddcId, password: submission.value.password });
    if (!result.ok)
      return json(
        { intent, result: replyWithFailure(submission, result, { hideFields: ["password"] }), confirm: null },
        { status: failureStatus(result) },
      );
    return redirectWithFlash(request, here, { kind: "success", key: "ddc:password.saved" });
  }
  if (formData.get("confirmed") !== "yes") return json({ intent, result: null, confirm: { ddcId: String(ddcId) } });
  const result = await api.call("/sys/ddc/password", { ddcId, clear: true });
  if (!result.ok) throw json({ messageKey: result.messageKey }, { status: failureStatus(result) });
  return redirectWithFlash(request, here, { kind: "success", key: "ddc:password.cleared" });
}

export default function DdcDetail() {
  const { ddc: d, transferFeeCents, vaultUrl, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("ddc");
  const here = ddcDetailHref(d.ddcId);
  const confirm = actionData?.confirm ?? null;
  return (
    <div className="space-y-6">
      <PageHeader
        title={d.name}
        titleTestId="ddc-name"
        actions={
          <>
            <div className="flex flex-wrap gap-3">
              <a className="btn-secondary" href={`${DDC_VIEW_PATH}?ddcId=${d.ddcId}`} data-testid="ddc-view-link">
                {t("detail.publicView")}
              </a>
              <a className="btn-secondary" href={`${DDC_QRCODE_PATH}?ddcId=${d.ddcId}`} data-testid="ddc-qr-link">
                {t("detail.qrCode")}
              </a>
            </div>
          </>
        }
      />
      {confirm ? (
        <IntentConfirmStep
          id="ddc-confirm"
          title={t(`confirm.${actionData!.intent}.title`)}
          question={t(`confirm.${actionData!.intent}.question`, { to: "to" in confirm ? confirm.to : "" })}
          intent={actionData!.intent}
          fields={confirm}
          action={here}
          cancelTo={here}
          confirmLabel={t(`confirm.${actionData!.intent}.confirm`)}
          cancelLabel={t("common:actions.cancel")}
          danger
        />
      ) : null}
      {d.status === DdcStatus.FAILED && d.failReason ? (
        <p
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700"
          data-testid="ddc-fail-reason"
        >
          {t("detail.failed", { reason: d.failReason })}
        </p>
      ) : null}
      <section className="card">
        <dl className="grid gap-4 sm:grid-cols-3">
          <Field label={t("fields.status")}>
            <DdcStatusBadge status={d.status} />
          </Field>
          <Field label={t("fields.tokenId")}>
            <span className="tabular-nums" data-testid="ddc-token-id">
              {d.tokenId}
            </span>
          </Field>
          <Field label={t("fields.project")}>
            {d.projectName} · {d.accountName}
          </Field>
          <Field label={t("fields.contract")}>
            <span className="break-all font-mono text-xs" data-testid="ddc-contract">
              {d.contractAddress ?? "—"}
            </span>
          </Field>
          <Field label={t("fields.owner")}>
            <span className="break-all font-mono text-xs" data-testid="ddc-owner">
              {d.owner ?? "—"}
            </span>
          </Field>
          <Field label={t("fields.chainId")}>{d.chainId ?? "—"}</Field>
          <Field label={t("fields.file")}>
            {d.fileName}{" "}
            <span className="text-xs text-slate-600">
              ({d.fileMime}, {d.fileSize.toLocaleString(language)} B)
            </span>
          </Field>
          <Field label={t("fields.storage")}>
            {t(`storage.${d.storage}`)}
            {d.fileCid ? <span className="block break-all font-mono text-xs">{d.fileCid}</span> : null}
          </Field>
          <Field label={t("fields.tokenUri")}>
            <span className="break-all font-mono text-xs" data-testid="ddc-token-uri">
              {d.tokenUri ?? "—"}
            </span>
          </Field>
          <Field label={t("fields.mintTx")}>
            <span className="break-all font-mono text-xs">{d.mintTxHash ?? "—"}</span>
          </Field>
          <Field label={t("fields.minted")}>{formatDate(d.mintedAt, language, true)}</Field>
          <Field label={t("fields.bill")}>
            {d.billId ? (
              <Link className="link" to={`/g/home/userCenter/BillDetail?billId=${d.billId}`}>
                {t("detail.bill")}
              </Link>
            ) : (
              "—"
            )}
          </Field>
        </dl>
        {d.description ? <p className="mt-4 whitespace-pre-line text-sm">{d.description}</p> : null}
        <div className="mt-4">
          <MetadataList metadata={d.metadata} />
        </div>
        <p className="mt-4">
          <VaultLink href={vaultUrl} />
        </p>
      </section>
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">{t("history.title")}</h2>
        <HistoryTable history={d.history} language={language} />
      </section>
      {d.status === DdcStatus.MINTED ? (
        <div className="grid gap-6 lg:grid-cols-2">
          <section className="card space-y-2">
            <h2 className="text-lg font-semibold">{t("transfer.title")}</h2>
            {d.heldBy ? (
              <TransferForm
                ddcId={d.ddcId}
                holder={d.heldBy.accountName}
                fee={formatUsd(transferFeeCents, language)}
                lastResult={actionData?.intent === "transfer" ? actionData.result : null}
              />
            ) : (
              <p className="text-sm text-slate-600" data-testid="ddc-not-held">
                {t("transfer.notHeld")}
              </p>
            )}
          </section>
          <section className="card space-y-2">
            <h2 className="text-lg font-semibold">{t("password.title")}</h2>
            <PasswordForm
              ddcId={d.ddcId}
              passwordSet={d.passwordSet}
              lastResult={actionData?.intent === "password" ? actionData.result : null}
            />
          </section>
        </div>
      ) : null}
    </div>
  );
}
