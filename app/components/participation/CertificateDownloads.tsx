import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export const DOWNLOAD = "/g/home/MyCertificates/download";

/**
 * Download links of one certificate (docs/decisions/013): the certificate PEM and, for key trust, the key
 * encrypted with the certificate password (plain GET links); a participant certificate's key is handed out
 * once, so it is a POST (a native form submission: the browser saves the file and stays on the page).
 */
export function CertificateDownloads({
  c,
}: {
  c: { certificateId: number; mode: number; keyAvailable: boolean; downloadable: boolean };
}) {
  const { t } = useTranslation("participation");
  if (!c.downloadable) return <span className="text-xs text-slate-500">{t("certs.pending")}</span>;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <a
        href={`${DOWNLOAD}?certificateId=${c.certificateId}&kind=certificate`}
        download
        className="btn-secondary text-xs"
        data-testid="download-certificate"
      >
        {t("certs.download")}
      </a>
      {c.mode === 2 ? (
        <a href={`${DOWNLOAD}?certificateId=${c.certificateId}&kind=key`} download className="btn-secondary text-xs">
          {t("certs.downloadKey")}
        </a>
      ) : null}
      {c.mode === 1 && c.keyAvailable ? (
        <Form method="post" action={DOWNLOAD} reloadDocument>
          <input type="hidden" name="certificateId" value={c.certificateId} />
          <button type="submit" className="btn-secondary text-xs">
            {t("certs.downloadKeyOnce")}
          </button>
        </Form>
      ) : null}
      {c.mode === 1 && !c.keyAvailable ? <span className="text-xs text-slate-500">{t("certs.keyTaken")}</span> : null}
    </div>
  );
}
