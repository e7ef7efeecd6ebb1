import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { InvoiceDetailView } from "#app/components/invoices/application.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { idFromQuery, readFailure } from "#app/lib/invoices.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["invoices"], breadcrumb: [{ key: "invoices:detail.crumb" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("invoiceDetail");

/** SPEC §2 Invoices details: the caller's own application only (another user's id is a 404). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const invoiceId = idFromQuery(new URL(request.url));
  const result = await apiFor(request, viewer).call("/sys/system/invoiceAccountTrade/h5invoiceAccountTradeDetail", {
    invoiceId,
  });
  if (!result.ok) throw readFailure(result);
  return json({ detail: result.data, language: viewer.language });
}

export default function InvoiceDetailPage() {
  const { detail, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("invoices");
  return (
    <div className="space-y-4">
      <PageHeader
        title={t("detail.heading", { no: detail.applicationNo })}
        actions={
          <>
            <Link to="/g/home/userCenter/Invoices" className="btn-secondary">
              {t("actions.backToList")}
            </Link>
          </>
        }
      />
      <InvoiceDetailView detail={detail} language={language} />
    </div>
  );
}
