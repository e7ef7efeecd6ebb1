import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LIST_STATUSES, type ListStatus } from "@contract/participation-codes";
import { Pagination } from "~/components/Pagination";
import { AuditBadge, ListStatusBadge, Table, td } from "~/components/participation";
import { apiFor, requireUser } from "~/lib/api.server";
import { formatDate } from "~/lib/format";
import { pageTitle } from "~/lib/meta";

export const handle = { i18n: ["participation"], breadcrumb: [{ key: "menu.permissionedServices" }, { key: "menu.participatedServices" }] };
export const meta = pageTitle("participatedServices");

const PAGE_SIZE = 10;

/** SPEC §2 ParticipatedServices: the caller's participations with the §4 participated-list statuses. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const name = (url.searchParams.get("name") ?? "").trim().slice(0, 50);
  const raw = url.searchParams.get("status") ?? "";
  const status = (LIST_STATUSES as readonly string[]).includes(raw) ? (raw as ListStatus) : undefined;
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  const data = await apiFor(request, viewer).load("/sys/chainAppInfo/participatedList", {
    page: { pageSize: PAGE_SIZE, pageIndex: page, condition: { ...(name ? { name } : {}), ...(status ? { status } : {}) } },
  });
  return json({ ...data, name, status: status ?? "", language: viewer.language });
}

export default function ParticipatedServices() {
  const { page, name, status, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("participation");
  const filtered = !!name || !!status;
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">{t("list.title")}</h1>
      <Form method="get" className="flex flex-wrap items-end gap-3" role="search">
        <div>
          <label htmlFor="pl-name" className="label">{t("list.search")}</label>
          <input id="pl-name" name="name" defaultValue={name} maxLength={50} className="input" />
        </div>
        <div>
          <label htmlFor="pl-status" className="label">{t("list.status")}</label>
          <select id="pl-status" name="status" defaultValue={status} className="input">
            <option value="">{t("list.allStatuses")}</option>
            {LIST_STATUSES.map((s) => <option key={s} value={s}>{t(`listStatus.${s}`)}</option>)}
          </select>
        </div>
        <button type="submit" className="btn-secondary">{t("list.filter")}</button>
      </Form>
      {page.rows.length === 0 ? (
        <p className="card text-center text-slate-500" data-testid="empty">{filtered ? t("list.emptyFiltered") : t("list.empty")}</p>
      ) : (
        <Table head={[t("list.name"), t("list.role"), t("list.status"), t("list.audit"), t("list.applied"), t("list.actions")]} testId="participated-list">
          {page.rows.map((r) => {
            const detail = `/g/home/ParticipatedServices/ServicesDetail?${new URLSearchParams({ types: "2", appCode: r.appCode, appId: String(r.appId), auditState: String(r.auditState), appJoinAuditId: String(r.appJoinAuditId), ifJoIn: "1" })}`;
            return (
              <tr key={r.appJoinAuditId}>
                <td className={td}>{r.name}</td>
                <td className={td}>{r.roleName}</td>
                <td className={td}><ListStatusBadge status={r.listStatus} /></td>
                <td className={td}><AuditBadge auditState={r.auditState} /></td>
                <td className={td}>{formatDate(r.createdAt, language, true)}</td>
                <td className={`${td} space-x-3`}>
                  <Link to={detail} className="link">{t("list.detail")}</Link>
                  {r.listStatus === "toConfirm" || r.listStatus === "confirmed" ? <Link to={`/g/home/ParticipatedServices/Access?appId=${r.appId}`} className="link">{t("list.access")}</Link> : null}
                </td>
              </tr>
            );
          })}
        </Table>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
