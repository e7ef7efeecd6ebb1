import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import { FilterPills } from "#app/components/FilterPills.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { apiFor, failureResponse, requireUser, type Viewer } from "#app/lib/api.server.ts";
import { formatDate, messageParams } from "#app/lib/format.ts";
import { messageHref } from "#app/lib/message-links.ts";
import { intentOf, parseFormOr400 } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pagingOf } from "#app/lib/paging.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { MessageStatus } from "#contract/message-codes.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["messages"],
  breadcrumb: [{ key: "menu.userCenter" }, { key: "menu.messageCenter" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("messageCenter");

const FILTERS = { all: undefined, unread: 0, read: 1 } as const;
type Filter = keyof typeof FILTERS;

function readQuery(url: URL) {
  const filter = (Object.keys(FILTERS) as Filter[]).find((f) => f === url.searchParams.get("status")) ?? "all";
  return { filter, paging: pagingOf(url) };
}

/** SPEC §2 MessageCenter: read and unread messages, mark one or all as read. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const { filter, paging } = readQuery(new URL(request.url));
  const status = FILTERS[filter];
  const data = await apiFor(request, viewer).load("/sys/system/message/list", {
    page: { ...paging, condition: status === undefined ? {} : { status } },
  });
  return json({ ...data, filter, language: viewer.language });
}

const messageRef = z.object({ messageId: z.coerce.number().int().positive() });

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  switch (intentOf(formData, ["read", "readAll"])) {
    case "read":
      return markRead(request, viewer, { messageIds: [parseFormOr400(messageRef, formData).messageId] });
    case "readAll":
      return markRead(request, viewer, { all: true });
  }
}

/** Marks one message or all as read, and shows the same page again. */
async function markRead(request: Request, viewer: Viewer, payload: { messageIds: number[] } | { all: true }) {
  const result = await apiFor(request, viewer).call("/sys/system/message/read", payload);
  if (!result.ok) throw failureResponse(result);
  const url = new URL(request.url);
  return redirect(url.pathname + url.search);
}

export default function MessageCenter() {
  const { page, unread, filter, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("messages");
  const location = useLocation();
  return (
    <div className="space-y-4">
      <PageHeader
        title={t("center.title")}
        actions={
          <>
            <Form method="post" action={location.pathname + location.search}>
              <button type="submit" name="intent" value="readAll" className="btn-secondary" disabled={unread === 0}>
                {t("center.markAllRead")}
              </button>
            </Form>
          </>
        }
      />
      <FilterPills
        label={t("center.filter")}
        links={(["all", "unread", "read"] as const).map((f) => ({
          key: f,
          to: `?status=${f}`,
          current: filter === f,
          label: `${t(`center.filters.${f}`)}${f === "unread" ? ` (${unread})` : ""}`,
        }))}
      />
      {page.rows.length === 0 ? (
        <EmptyState message={t("common:empty.noRelevant")} />
      ) : (
        <ul
          className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white"
          aria-describedby="message-times"
        >
          {page.rows.map((m) => (
            <li key={m.messageId} className="flex items-start justify-between gap-4 p-4" data-testid="message">
              <div>
                {/* The message's words are the locale's; its names (services, people) are what users entered. */}
                <p
                  className={m.status === MessageStatus.UNREAD ? "font-semibold text-slate-900" : "text-slate-700"}
                  data-user-content=""
                >
                  {m.status === MessageStatus.UNREAD ? (
                    <span className="mr-2 inline-block h-2 w-2 rounded-full bg-brand-600" aria-hidden="true" />
                  ) : null}
                  {t(m.textKey, messageParams(m.params, language))}
                </p>
                <p className="mt-1 text-xs text-slate-600">
                  {formatDate(m.createdAt, language, true, false)} ·{" "}
                  {t(m.status === MessageStatus.UNREAD ? "center.unread" : "center.read")}
                  {messageHref(m.ref) ? (
                    <>
                      {" "}
                      ·{" "}
                      <Link to={messageHref(m.ref)!} className="link" data-testid="message-link">
                        {t(`center.open.${m.ref!.kind}`)}
                      </Link>
                    </>
                  ) : null}
                </p>
              </div>
              {m.status === MessageStatus.UNREAD ? (
                <Form method="post" action={location.pathname + location.search}>
                  <input type="hidden" name="messageId" value={m.messageId} />
                  <button type="submit" name="intent" value="read" className="link text-sm">
                    {t("center.markRead")}
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {page.rows.length > 0 ? (
        <p id="message-times" className="text-xs text-slate-600">
          {t("common:timesInZone")}
        </p>
      ) : null}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} sizes />
    </div>
  );
}
