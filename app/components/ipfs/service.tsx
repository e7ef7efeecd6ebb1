import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { IpfsService } from "#contract/ipfs.ts";
import { IPFS_KEY_KINDS, IpfsKeyState, IpfsServiceStatus, type IpfsKeyKind } from "#contract/ipfs-codes.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { SubmitButton } from "#app/components/form-parts.tsx";
import { inLanguage } from "#app/components/details.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { CopyableText } from "#app/components/public-chain/KeyPanel.tsx";
import { formatDate, zoneHeader, formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { KeyStateBadge } from "./badges.tsx";
import { formatBytes } from "#app/lib/format-number.ts";
import { downloadHref, openHref } from "#app/lib/ipfs-urls.ts";

export type ShownKey = { kind: IpfsKeyKind; apiKey: string | null; regenerated: boolean } | null;
type File = { ipfsFileId: number; name: string; cid: string; size: number; contentType: string; createdAt: string };

/** The city node gateways of the service: where each serves and its traffic price. */
export function GatewayTable({
  service: s,
  origin,
  language,
}: {
  service: IpfsService;
  origin: string;
  language: Language;
}) {
  const { t } = useTranslation("ipfs");
  return (
    <Table
      label={t("gateway.title")}
      regionTestId="gateway-list"
      head={[t("gateway.node"), t("gateway.address"), t("gateway.price")]}
    >
      {s.gateways.map((g) => (
        <tr key={g.orgId} data-testid="gateway-row">
          <td className={td}>{inLanguage(g.orgName, g.orgNameZh, language)}</td>
          <td className={`${td} font-mono text-xs break-all`}>{`${origin}${g.gatewayPath}`}</td>
          <td className={`${td} tabular-nums`}>
            {t("create.trafficPrice", { price: formatUsd(g.flowPriceCents, language) })}
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** The upload and download keys (SPEC §4 IPFS key): shown on request, regenerated, deactivated or activated. */
export function KeyCards({ service: s, here, shown }: { service: IpfsService; here: string; shown: ShownKey }) {
  const { t } = useTranslation("ipfs");
  const running = s.status === IpfsServiceStatus.RUNNING;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {IPFS_KEY_KINDS.map((kind) => {
        const key = s.keys.find((k) => k.kind === kind);
        if (!key) return null;
        const value = shown?.kind === kind ? shown.apiKey : null;
        const formId = `key-${kind}`;
        return (
          <section key={kind} className="card space-y-3" data-testid={`key-${kind}`}>
            <div className="flex items-center justify-between gap-2">
              <h3 className="font-semibold">{t(`key.${kind}`)}</h3>
              <KeyStateBadge state={key.state} testId={`key-${kind}-state`} />
            </div>
            {value ? (
              <CopyableText value={value} label={t(`key.${kind}`)} testId={`key-${kind}-value`} />
            ) : (
              <code className="font-mono text-sm" data-testid={`key-${kind}-hint`}>{`…${key.keyHint}`}</code>
            )}
            {shown?.kind === kind && shown.regenerated ? (
              <p role="status" className="text-xs text-amber-800">
                {t("key.regenerated")}
              </p>
            ) : null}
            <p className="text-xs text-slate-600">{t(`key.${kind}Hint`)}</p>
            {running && key.state !== IpfsKeyState.UNSUBSCRIBED ? (
              <Form method="post" action={here} id={formId} className="flex flex-wrap gap-2">
                <input type="hidden" name="kind" value={kind} />
                {!value ? (
                  <SubmitButton intent="showKey" className="btn-secondary">
                    {t("key.show")}
                  </SubmitButton>
                ) : null}
                <ConfirmSubmit
                  formId={formId}
                  name="intent"
                  value="regenerateKey"
                  label={t("key.regenerate")}
                  className="btn-secondary"
                  title={t("confirm.regenerateKey.title")}
                  question={t("confirm.regenerateKey.question", { key: t(`key.${kind}`) })}
                  confirmLabel={t("confirm.regenerateKey.confirm")}
                />
                {key.state === IpfsKeyState.ACTIVATED ? (
                  <ConfirmSubmit
                    formId={formId}
                    name="intent"
                    value="deactivateKey"
                    label={t("key.deactivate")}
                    className="btn-danger"
                    title={t("confirm.deactivateKey.title")}
                    question={t("confirm.deactivateKey.question", { key: t(`key.${kind}`) })}
                    confirmLabel={t("confirm.deactivateKey.confirm")}
                  />
                ) : (
                  <SubmitButton intent="activateKey" className="btn-primary">
                    {t("key.activate")}
                  </SubmitButton>
                )}
              </Form>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}

/** The service's files: name, CID, size, date; downloaded through its gateway, unpinned after confirming. */
export function FileTable({
  service: s,
  files,
  here,
  language,
}: {
  service: IpfsService;
  files: File[];
  here: string;
  language: Language;
}) {
  const { t } = useTranslation("ipfs");
  return (
    <Table
      label={t("file.title")}
      regionTestId="file-list"
      head={[t("file.name"), t("file.cid"), t("file.size"), zoneHeader(t, t("file.created")), t("list.actions")]}
    >
      {files.map((f) => {
        const formId = `unpin-${f.ipfsFileId}`;
        return (
          <tr key={f.ipfsFileId} data-testid="file-row">
            <td className={`${td} break-all`}>
              {f.name}
              <span className="block text-xs text-slate-600">{f.contentType}</span>
            </td>
            <td className={`${td} font-mono text-xs break-all`} data-testid="file-cid">
              {f.cid}
            </td>
            <td className={`${td} whitespace-nowrap tabular-nums`}>{formatBytes(f.size)}</td>
            <td className={`${td} whitespace-nowrap`}>{formatDate(f.createdAt, language, true, false)}</td>
            <td className={`${td} whitespace-nowrap`}>
              <Form method="post" action={here} id={formId} className="flex items-center gap-3">
                <Link
                  className="link"
                  to={downloadHref(s.ipfsServiceId, f.cid)}
                  reloadDocument
                  data-testid="file-download"
                >
                  {t("file.download")}
                </Link>
                <a
                  className="link"
                  href={openHref(s.ipfsServiceId, f.cid)}
                  target="_blank"
                  rel="noopener"
                  data-testid="file-open"
                >
                  {t("file.open")}
                </a>
                <input type="hidden" name="ipfsFileId" value={f.ipfsFileId} />
                <ConfirmSubmit
                  formId={formId}
                  name="intent"
                  value="unpin"
                  label={t("file.unpin")}
                  className="btn-danger !py-1"
                  title={t("confirm.unpin.title")}
                  question={t("confirm.unpin.question", { name: f.name })}
                  confirmLabel={t("confirm.unpin.confirm")}
                />
              </Form>
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

/** curl against the service's first gateway, as the documentation's gateway guide explains. */
export function CommandLineGuide({ service: s, origin }: { service: IpfsService; origin: string }) {
  const { t } = useTranslation("ipfs");
  const gateway = s.gateways[0];
  if (!gateway) return null;
  const base = `${origin}${gateway.gatewayPath}`;
  return (
    <section className="card space-y-2 text-sm" data-testid="cli-guide">
      <h2 className="text-lg font-semibold">{t("cli.title")}</h2>
      <p className="text-slate-600">{t("cli.upload")}</p>
      <pre
        className="overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100"
        tabIndex={0}
      >{`curl -H "Authorization: Bearer <${t("key.upload")}>" -H "X-File-Name: report.pdf" --data-binary @report.pdf ${base}/upload`}</pre>
      <p className="text-slate-600">{t("cli.download")}</p>
      <pre
        className="overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100"
        tabIndex={0}
      >{`curl -H "Authorization: Bearer <${t("key.download")}>" -o report.pdf ${base}/ipfs/<CID>\ncurl -H "Authorization: Bearer <${t("key.download")}>" -H "Range: bytes=0-1023" ${base}/ipfs/<CID>`}</pre>
      <p className="text-slate-600">
        {t("cli.more")}{" "}
        <Link className="link" to="/g/main/documentation?page=ipfs-gateway">
          {t("list.guide")}
        </Link>
      </p>
    </section>
  );
}
