import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { EXPIRY_WARNING_DAYS } from "#contract/participation-codes.ts";
import { CertificateDownloads } from "#app/components/participation/CertificateDownloads.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam } from "#app/lib/params.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["participation"],
  breadcrumb: [{ key: "menu.permissionedServices" }, { key: "menu.myCertificates" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("myCertificates");

const PAGE_SIZE = 10;
const DAY = 24 * 60 * 60 * 1000;

/** SPEC §2 MyCertificates: every identity certificate of the caller, soonest expiry first; expiring ones flagged. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const page = pageParam(new URL(request.url));
  const data = await apiFor(request, viewer).load("/sys/chainAppInfo/myCertificates", {
    page: { pageSize: PAGE_SIZE, pageIndex: page, condition: {} },
  });
  return json({ ...data, now: Date.now(), language: viewer.language });
}

export default function MyCertificates() {
  const { page, now, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("participation");
  return (
    <div className="space-y-4">
      <PageHeader title={t("certs.title")} />
      {page.rows.length === 0 ? (
        <EmptyState message={t("certs.empty")} testId="empty" />
      ) : (
        <Table
          label={t("certs.title")}
          head={[
            t("certs.service"),
            t("certs.role"),
            t("certs.mode"),
            t("certs.serial"),
            zoneHeader(t, t("certs.validity")),
            zoneHeader(t, t("certs.expiry")),
            t("certs.status"),
            "",
          ]}
          regionTestId="certificates"
        >
          {page.rows.map((c) => {
            const left = new Date(c.notAfter).getTime() - now;
            const status = c.revokedAt
              ? "revoked"
              : left <= 0
                ? "expired"
                : left <= EXPIRY_WARNING_DAYS * DAY
                  ? "expiring"
                  : "valid";
            return (
              <tr key={c.certificateId} data-testid="certificate-row">
                <td className={td}>{c.appName}</td>
                <td className={td}>{c.roleName}</td>
                <td className={td}>{t(`modes.${c.mode}`)}</td>
                <td className={`${td} font-mono text-xs`} title={c.subject}>
                  {c.serialNumber.slice(0, 16)}
                </td>
                <td className={td}>{formatDate(c.notBefore, language, false, false)}</td>
                <td className={td}>{formatDate(c.notAfter, language, false, false)}</td>
                <td className={td}>
                  <span
                    className={
                      status === "valid"
                        ? "text-green-700"
                        : status === "expiring"
                          ? "font-medium text-amber-700"
                          : "text-red-700"
                    }
                    data-testid="certificate-status"
                  >
                    {t(`certs.${status}`)}
                  </span>
                </td>
                <td className={td}>{c.revokedAt ? null : <CertificateDownloads c={c} />}</td>
              </tr>
            );
          })}
        </Table>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
