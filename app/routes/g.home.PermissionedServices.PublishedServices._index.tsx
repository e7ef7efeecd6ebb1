import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ConfirmPanel, InvitePanel, ServiceActionLinks } from "#app/components/services/actions.tsx";
import { StatusBadge } from "#app/components/services/badges.tsx";
import { shownActions } from "#app/lib/services-rules.ts";
import { NEW_SERVICES, detailHref } from "#app/lib/services-urls.ts";
import { BlockedLink } from "#app/components/BlockedAction.tsx";
import { DiscardPanel, DraftList } from "#app/components/services/drafts.tsx";
import { RecordTable } from "#app/components/RecordTable.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate, formatUsd, zoneHeader } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pagingOf } from "#app/lib/paging.ts";
import { positiveParam, searchParam } from "#app/lib/params.ts";
import {
  discardDraft,
  LIFECYCLE_INTENTS,
  lifecycleAction,
  withoutPanels,
  joinRedirect,
} from "#app/lib/services.server.ts";
import { blockOf } from "#app/lib/unpaid-guard.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["services", "wizard", "billing"],
  breadcrumb: [{ key: "menu.permissionedServices" }, { key: "menu.publishedServices" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("publishedServices");

/**
 * SPEC §2 PublishedServices: the caller's services with their §4 status, searchable by name, with exactly
 * the actions serviceActions() allows. `?confirm=deactivate|unsubscribe&appVerId=` is the confirm step of a
 * destructive action and `?invite=<appVerId>` shows an invitation link (both work without JavaScript).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const name = searchParam(url.searchParams);
  const api = apiFor(request, viewer);
  // The wizard's entries show before the click whether unpaid bills block them (SPEC §5, docs/decisions/027).
  const [data, drafts, block] = await Promise.all([
    api.load("/sys/chainAppInfo/publishedList", { page: { ...pagingOf(url), condition: name ? { name } : {} } }),
    api.load("/sys/chainAppInfo/wizard/drafts", {}),
    blockOf(api, 1),
  ]);
  await joinRedirect(url, api, data.page.rows, viewer.language);
  const confirmKind = url.searchParams.get("confirm");
  const confirmVer = positiveParam(url.searchParams.get("appVerId"));
  const confirmRow = confirmVer ? data.page.rows.find((r) => r.appVerId === confirmVer) : undefined;
  const confirm =
    confirmRow &&
    (confirmKind === "deactivate" || confirmKind === "unsubscribe") &&
    shownActions(confirmRow).includes(confirmKind)
      ? { kind: confirmKind as "deactivate" | "unsubscribe", appVerId: confirmRow.appVerId, name: confirmRow.name }
      : null;
  const discard = confirmKind === "discard" ? (drafts.find((d) => d.appVerId === confirmVer) ?? null) : null;
  const inviteVer = positiveParam(url.searchParams.get("invite"));
  const inviteRow = inviteVer ? data.page.rows.find((r) => r.appVerId === inviteVer) : undefined;
  let invite: { name: string; url: string; expiresAt: string } | null = null;
  if (inviteRow && shownActions(inviteRow).includes("invite")) {
    const link = await api.load("/sys/chainAppInfo/invite", {
      appVerId: inviteRow.appVerId,
      language: viewer.language,
    });
    invite = { name: inviteRow.name, url: `${url.origin}${link.path}`, expiresAt: link.expiresAt };
  }
  return json({
    page: data.page,
    drafts,
    discard,
    name,
    confirm,
    invite,
    block,
    here: withoutPanels(url),
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const intent = intentOf(formData, [...LIFECYCLE_INTENTS, "discardDraft"]);
  if (intent === "discardDraft") return discardDraft(request, viewer, formData);
  return lifecycleAction(request, viewer, intent, formData);
}

export default function PublishedServices() {
  const { page, drafts, discard, name, confirm, invite, block, here, language } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const { t } = useTranslation("services");
  const create = (
    <BlockedLink
      to={`${NEW_SERVICES}?appState=add`}
      action="newService"
      block={block}
      className="btn-primary inline-block"
    >
      {t("list.create")}
    </BlockedLink>
  );
  return (
    <div className="space-y-4">
      <PageHeader title={t("list.title")} actions={create} />
      {discard ? <DiscardPanel draft={discard} cancelTo={here} /> : null}
      {confirm ? (
        <ConfirmPanel
          kind={confirm.kind}
          row={confirm}
          cancelTo={here}
          lastResult={reply?.kind === "typedConfirm" ? reply.result : undefined}
        />
      ) : null}
      {invite ? (
        <InvitePanel
          name={invite.name}
          url={invite.url}
          expires={formatDate(invite.expiresAt, language, true)}
          closeTo={here}
        />
      ) : null}
      <DraftList drafts={drafts} here={here} block={block} language={language} />
      <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
        <div>
          <label htmlFor="search-name" className="label">
            {t("list.search")}
          </label>
          <input id="search-name" name="name" defaultValue={name} maxLength={50} className="input" />
        </div>
        <button type="submit" className="btn-secondary">
          {t("list.searchButton")}
        </button>
        {name ? (
          <Link to="?" className="link text-sm">
            {t("list.clear")}
          </Link>
        ) : null}
      </Form>
      <RecordTable
        label={t("list.title")}
        page={page}
        sizes
        rowKey={(row) => row.appVerId}
        rowTestId="service-row"
        columns={[
          {
            header: t("list.name"),
            className: "font-medium",
            userContent: true,
            cell: (row) => (
              <Link className="link" to={detailHref(row)}>
                {row.name}
              </Link>
            ),
          },
          { header: t("list.version"), cell: (row) => row.version },
          { header: t("list.status"), cell: (row) => <StatusBadge verState={row.verState} /> },
          {
            header: t("list.cost"),
            cell: (row) =>
              row.freeYN === 1 ? t("list.free") : row.costCents === null ? "" : formatUsd(row.costCents, language),
          },
          {
            header: zoneHeader(t, t("list.created")),
            className: "whitespace-nowrap",
            cell: (row) => formatDate(row.createdAt, language, false, false),
          },
          { header: t("list.actions"), cell: (row) => <ServiceActionLinks row={row} here={here} block={block} /> },
        ]}
        empty={
          <>
            <p>{t(name ? "list.emptySearch" : "list.empty")}</p>
            {!name ? create : null}
          </>
        }
      />
    </div>
  );
}
