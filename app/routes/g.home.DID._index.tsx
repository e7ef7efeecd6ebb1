import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Pagination } from "#app/components/Pagination.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { DidTabs, Mono } from "#app/components/did/views.tsx";
import { DID_HOME, didHref } from "#app/lib/did-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam } from "#app/lib/params.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["did", "services"], breadcrumb: [{ key: "titles.did" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("did");

const PAGE_SIZE = 10;

/** The DID service (SPEC §1, §2 DID): the user's DIDs, with a way to make one. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const list = await apiFor(request, viewer).load("/sys/did/identifiers/list", {
    pageIndex: pageParam(new URL(request.url)),
    pageSize: PAGE_SIZE,
  });
  return json({ page: list.page, language: viewer.language });
}

export default function DidList() {
  const { page, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("did");
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("list.title")}
        description={t("list.intro")}
        actions={
          <>
            <Link to={`${DID_HOME}/New`} className="btn-primary">
              {t("list.new")}
            </Link>
          </>
        }
      />
      <DidTabs />
      {page.rows.length === 0 ? (
        <div className="card text-center text-slate-600" data-testid="empty">
          {t("list.empty")}
        </div>
      ) : (
        <Table
          label={t("list.title")}
          regionTestId="did-list"
          head={[t("did.label"), t("did.did"), t("did.method"), t("did.custody"), zoneHeader(t, t("did.created"))]}
        >
          {page.rows.map((d) => (
            <tr key={d.didId} data-testid="did-row">
              <td className={td}>
                <Link className="link font-medium" to={didHref(d.didId)} data-user-content="">
                  {d.label}
                </Link>
              </td>
              <td className={`${td} max-w-md`}>
                <Mono>{d.did}</Mono>
              </td>
              <td className={td}>
                {/* A DID method is an identifier (did:key), not a word: set as code. */}
                <code className="text-xs">{t(`method.${d.method}`)}</code> · {d.keyType}
              </td>
              <td className={td}>{t(`custody.${d.custody}`)}</td>
              <td className={td}>{formatDate(d.createdAt, language, true, false)}</td>
            </tr>
          ))}
        </Table>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
