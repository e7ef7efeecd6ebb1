import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { IPFS_KEY_KINDS, IpfsServiceStatus } from "#contract/ipfs-codes.ts";
import { Msg } from "#contract/messages.ts";
import { BlockedLink } from "#app/components/BlockedAction.tsx";
import { FileField, FormErrors, SubmitButton } from "#app/components/forms.tsx";
import { Field } from "#app/components/details.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { UploadProgress } from "#app/components/UploadProgress.tsx";
import { CapacityMeter, ServiceStatusBadge, capacityLabel } from "#app/components/ipfs/badges.tsx";
import { formatBytes } from "#app/lib/format-number.ts";
import { IPFS, serviceHref, trafficHref } from "#app/lib/ipfs-urls.ts";
import { CommandLineGuide, FileTable, GatewayTable, KeyCards, type ShownKey } from "#app/components/ipfs/service.tsx";
import { UpgradeTable, newUpgradeHref } from "#app/components/ipfs/upgrades.tsx";
import { apiFor, failureStatus, redirectAfter, requireUser } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { serviceIdParam, uploadThroughGateway } from "#app/lib/ipfs.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { oneOf, pageParam, positiveId, searchParam } from "#app/lib/params.ts";
import { siteOrigin } from "#app/lib/public-chain.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { blockOf, requireNoUnpaidBills } from "#app/lib/unpaid-guard.server.ts";
import { UploadActionDataProvider, useActionDataWithUploads, useUpload } from "#app/lib/use-upload.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";

export const handle = {
  i18n: ["ipfs", "publicChain"],
  breadcrumb: [{ key: "titles.ipfs", to: IPFS }, { key: "titles.ipfsService" }],
};
export const meta = pageTitle("ipfsService", (d: { service?: { name: string } }) => d.service?.name);

const PAGE_SIZE = 20;
const INTENTS = ["showKey", "regenerateKey", "deactivateKey", "activateKey", "unpin"] as const;
type Intent = (typeof INTENTS)[number];
/** The moves that ask first (a dialog with JavaScript, a confirm step without). */
const CONFIRMED: readonly Intent[] = ["regenerateKey", "deactivateKey", "unpin"];

type ActionData =
  | { kind: "confirm"; intent: Intent; fields: Record<string, string> }
  | { kind: "key"; shown: NonNullable<ShownKey> }
  | { kind: "refused"; messageKey: string };

/**
 * An IPFS service (SPEC §2 "detail", §3, §4 IPFS key): capacity used, gateways, the two keys, the files with
 * upload (streamed through the service's gateway, with progress when JavaScript is on), download and unpin.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const ipfsServiceId = serviceIdParam(request);
  const url = new URL(request.url);
  const name = searchParam(url.searchParams);
  const api = apiFor(request, viewer);
  const [service, files, upgrades, block] = await Promise.all([
    api.load("/sys/ipfsBusiness/ipfs/detail", { ipfsServiceId }),
    api.load("/sys/ipfsBusiness/ipfs/files", {
      ipfsServiceId,
      pageIndex: pageParam(url),
      pageSize: PAGE_SIZE,
      ...(name ? { name } : {}),
    }),
    api.load("/sys/ipfsBusiness/ipfsUpgrade/list", { ipfsServiceId, pageIndex: 1, pageSize: 10 }),
    blockOf(api, 1),
  ]);
  return json({
    service,
    files: files.page,
    upgrades: upgrades.page,
    block,
    name,
    origin: siteOrigin(request),
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const ipfsServiceId = serviceIdParam(request);
  const api = apiFor(request, viewer);
  const here = serviceHref(ipfsServiceId);
  // The upload form is the page's only multipart form.
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    const service = await api.load("/sys/ipfsBusiness/ipfs/detail", { ipfsServiceId });
    const outcome = await uploadThroughGateway(request, api, service);
    if (outcome.ok)
      return redirectWithFlash(request, here, {
        kind: "success",
        key: "ipfs:upload.done",
        params: { name: outcome.name, cid: outcome.cid },
      });
    // SPEC §5: unpaid bills block uploads; home explains them and pays them ("Pay and continue").
    if (outcome.messageKey === `errors:${Msg.UNPAID_BILLS}`) await requireNoUnpaidBills(request, viewer, "ipfsUpload");
    return json<ActionData>(
      { kind: "refused", messageKey: outcome.messageKey },
      { status: outcome.status >= 400 && outcome.status < 500 ? outcome.status : 409 },
    );
  }
  const formData = await request.formData();
  const intent = intentOf(formData, INTENTS);
  const kind = oneOf(IPFS_KEY_KINDS, String(formData.get("kind") ?? "")) ?? "upload";
  const ipfsFileId = positiveId(String(formData.get("ipfsFileId") ?? ""));
  if (intent === "unpin" && !ipfsFileId)
    return json<ActionData>({ kind: "refused", messageKey: "errors:http.400" }, { status: 400 });
  if (CONFIRMED.includes(intent) && formData.get("confirmed") !== "yes") {
    return json<ActionData>({
      kind: "confirm",
      intent,
      fields: intent === "unpin" ? { ipfsFileId: String(ipfsFileId) } : { kind },
    });
  }
  if (intent === "unpin") {
    return redirectAfter(
      request,
      await api.call("/sys/ipfsBusiness/ipfs/unpin", { ipfsServiceId, ipfsFileId: ipfsFileId! }),
      here,
      "ipfs:file.unpinned",
    );
  }
  const move = (
    { showKey: "show", regenerateKey: "regenerate", deactivateKey: "deactivate", activateKey: "activate" } as const
  )[intent];
  const result = await api.call("/sys/ipfsBusiness/ipfs/key", { ipfsServiceId, kind, action: move });
  if (move === "show" || move === "regenerate") {
    if (!result.ok)
      return json<ActionData>({ kind: "refused", messageKey: result.messageKey }, { status: failureStatus(result) });
    return json<ActionData>({
      kind: "key",
      shown: { kind, apiKey: result.data.apiKey, regenerated: move === "regenerate" },
    });
  }
  return redirectAfter(request, result, here, `ipfs:key.${move}d`);
}

export default function IpfsServicePage() {
  const { service: s, files, upgrades, block, name, origin, language } = useLoaderData<typeof loader>();
  const [actionData, deliver] = useActionDataWithUploads<ActionData>();
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
