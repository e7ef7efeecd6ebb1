import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { IpfsServiceStatus } from "#contract/ipfs-codes.ts";
import type { DataOf } from "#contract/paths.ts";
import { BlockedLink } from "#app/components/BlockedAction.tsx";
import { Field } from "#app/components/details.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { FileField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { UploadProgress } from "#app/components/UploadProgress.tsx";
import type { Block } from "#app/lib/blocked.ts";
import { formatDate } from "#app/lib/format.ts";
import { formatBytes } from "#app/lib/format-number.ts";
import type { Language } from "#app/lib/i18n.ts";
import { serviceHref, trafficHref } from "#app/lib/ipfs-urls.ts";
import { UploadActionDataProvider, useActionDataWithUploads, useUpload } from "#app/lib/use-upload.ts";
import { CapacityMeter, ServiceStatusBadge, capacityLabel } from "./badges.tsx";
import { CommandLineGuide, FileTable, GatewayTable, KeyCards, type ShownKey } from "./service.tsx";
import { UpgradeTable, newUpgradeHref } from "./upgrades.tsx";

/** The moves on an IPFS service page (app/routes/g.home.IPFS.Service.tsx). */
export const IPFS_SERVICE_INTENTS = ["showKey", "regenerateKey", "deactivateKey", "activateKey", "unpin"] as const;
export type IpfsServiceIntent = (typeof IPFS_SERVICE_INTENTS)[number];

/** The route's answers: a confirm step (without JavaScript), a key shown once, a refusal. */
export type IpfsServiceAnswer =
  | { kind: "confirm"; intent: IpfsServiceIntent; fields: Record<string, string> }
  | { kind: "key"; shown: NonNullable<ShownKey> }
  | { kind: "refused"; messageKey: string };

/** What the route loads. */
export type IpfsServiceData = SerializeFrom<{
  service: DataOf<"/sys/ipfsBusiness/ipfs/detail">;
  files: DataOf<"/sys/ipfsBusiness/ipfs/files">["page"];
  upgrades: DataOf<"/sys/ipfsBusiness/ipfsUpgrade/list">["page"];
  block: Block;
  name: string;
  origin: string;
  language: Language;
}>;

/**
 * The body of an IPFS service page: capacity used, gateways, the two keys, the files with upload (progress when
 * JavaScript is on), download and unpin, the upgrades and the command-line guide.
 */
export function IpfsServicePage({ service: s, files, upgrades, block, name, origin, language }: IpfsServiceData) {
  const [actionData, deliver] = useActionDataWithUploads<IpfsServiceAnswer>();
  const { t } = useTranslation("ipfs");
  const upload = useUpload();
  const here = serviceHref(s.ipfsServiceId);
  const running = s.status === IpfsServiceStatus.RUNNING;
  const confirm = actionData?.kind === "confirm" ? actionData : null;
  return (
    <UploadActionDataProvider value={deliver}>
      <div className="space-y-6">
        <PageHeader
          title={t("service.title", { name: s.name })}
          actions={
            <>
              <div className="flex gap-3">
                <Link className="btn-secondary" to={trafficHref(s.ipfsServiceId)}>
                  {t("list.traffic")}
                </Link>
                {running ? (
                  <BlockedLink
                    to={newUpgradeHref(s.ipfsServiceId)}
                    action="ipfsUpgrade"
                    block={block}
                    className="btn-primary"
                  >
                    {t("upgrade.link")}
                  </BlockedLink>
                ) : null}
              </div>
            </>
          }
        />
        {confirm ? (
          <IntentConfirmStep
            id="ipfs-confirm"
            title={t(`confirm.${confirm.intent}.title`)}
            question={t(`confirm.${confirm.intent}.question`, {
              name: files.rows.find((f) => String(f.ipfsFileId) === confirm.fields.ipfsFileId)?.name ?? "",
              key: t(`key.${confirm.fields.kind ?? "upload"}`),
            })}
            intent={confirm.intent}
            fields={confirm.fields}
            action={here}
            cancelTo={here}
            confirmLabel={t(`confirm.${confirm.intent}.confirm`)}
            cancelLabel={t("common:actions.cancel")}
            danger
          />
        ) : null}
        {actionData?.kind === "refused" ? <FormErrors errors={[actionData.messageKey]} /> : null}
        <section className="card">
          <dl className="grid gap-4 sm:grid-cols-3">
            <Field label={t("service.status")}>
              <ServiceStatusBadge status={s.status} />
            </Field>
            <Field label={t("service.capacity")}>
              <span className="block font-medium" data-testid="service-capacity">
                {capacityLabel(s.storeUnit)}
              </span>
              <CapacityMeter used={s.usedBytes} capacity={s.capacityBytes} />
            </Field>
            <Field label={t("service.files")}>
              <span data-testid="file-count">{s.files.toLocaleString(language)}</span>
            </Field>
            <Field label={t("service.created")}>{formatDate(s.createdAt, language, true)}</Field>
            <Field label={t("service.expires")}>{formatDate(s.expiresAt, language, true)}</Field>
            <Field label={t("service.bill")}>
              {s.billId ? (
                <Link className="link font-mono text-xs" to={`/g/home/userCenter/BillDetail?billId=${s.billId}`}>
                  {s.billNo}
                </Link>
              ) : (
                "—"
              )}
            </Field>
          </dl>
        </section>
        <section className="space-y-2">
          <h2 className="text-lg font-semibold">{t("gateway.title")}</h2>
          <GatewayTable service={s} origin={origin} language={language} />
        </section>
        <section className="space-y-2">
          <h2 className="text-lg font-semibold">{t("key.title")}</h2>
          <KeyCards service={s} here={here} shown={actionData?.kind === "key" ? actionData.shown : null} />
        </section>
        <section className="space-y-3">
          <h2 className="text-lg font-semibold">{t("file.title")}</h2>
          {running ? (
            <form
              method="post"
              action={here}
              encType="multipart/form-data"
              onSubmit={upload.onSubmit}
              className="card space-y-3"
              data-testid="upload-form"
            >
              <FileField
                name="file"
                label={t("upload.label")}
                hint={t("upload.hint", { free: formatBytes(Math.max(0, s.capacityBytes - s.usedBytes)) })}
              />
              <UploadProgress upload={upload} />
              <div className="flex justify-end">
                <SubmitButton className="btn-primary" busy={upload.busy}>
                  {t("upload.submit")}
                </SubmitButton>
              </div>
            </form>
          ) : null}
          <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
            <input type="hidden" name="ipfsServiceId" value={s.ipfsServiceId} />
            <div>
              <label htmlFor="file-search" className="label">
                {t("file.search")}
              </label>
              <input id="file-search" name="name" defaultValue={name} className="input" />
            </div>
            <button type="submit" className="btn-secondary">
              {t("file.find")}
            </button>
          </Form>
          {files.rows.length === 0 ? (
            <EmptyState message={name ? t("file.noneFound") : t("file.none")} testId="no-files" />
          ) : (
            <FileTable service={s} files={files.rows} here={here} language={language} />
          )}
          <Pagination pageIndex={files.pageIndex} pageSize={files.pageSize} total={files.total} />
        </section>
        <section className="space-y-2" aria-labelledby="ipfs-upgrades">
          <h2 id="ipfs-upgrades" className="text-lg font-semibold">
            {t("upgrade.listTitle")}
          </h2>
          {upgrades.rows.length === 0 ? (
            <EmptyState message={t("upgrade.none")} testId="no-upgrades" />
          ) : (
            <UpgradeTable rows={upgrades.rows} language={language} />
          )}
        </section>
        <CommandLineGuide service={s} origin={origin} />
      </div>
    </UploadActionDataProvider>
  );
}
