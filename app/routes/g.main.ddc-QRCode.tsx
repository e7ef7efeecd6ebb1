import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { apiFor, getViewer } from "#app/lib/api.server.ts";
import { ddcIdParam, ddcViewUrl, qrSvg } from "#app/lib/ddc.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["ddc"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("ddcQrCode", (data) => data?.name);

/**
 * ddc-QRCode (SPEC §2, public, mobile): the QR code, in SVG, of a minted DDC's ddc-view URL on this site, with
 * the URL itself under it. A DDC with a QR-code password shows its code too: ddc-view asks for the password.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const ddcId = ddcIdParam(request);
  const view = await apiFor(request, viewer).load("/anon/ddc/view", { ddcId });
  const url = ddcViewUrl(request, ddcId);
  return json({ name: view.name, url, svg: await qrSvg(url) });
}

export default function DdcQrCode() {
  const { name, url, svg } = useLoaderData<typeof loader>();
  const { t } = useTranslation("ddc");
  return (
    <div className="mx-auto max-w-md space-y-4 px-4 py-8 text-center">
      <h1 className="text-2xl font-semibold">{name}</h1>
      <p className="text-sm text-slate-600">{t("qr.intro")}</p>
      {/* The SVG is the qrcode library's output for our own URL (no user text in it). */}
      <figure
        role="img"
        aria-label={t("qr.alt", { name })}
        data-testid="ddc-qr"
        data-url={url}
        className="mx-auto w-64 rounded-md border border-slate-200 bg-white p-2"
        dangerouslySetInnerHTML={{ __html: svg }}
      />
      <p className="break-all text-sm">
        <a className="link" href={url} data-testid="ddc-qr-target">
          {url}
        </a>
      </p>
    </div>
  );
}
