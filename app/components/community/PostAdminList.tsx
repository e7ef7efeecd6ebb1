import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Badge } from "#app/components/Badge.tsx";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { FilterPills } from "#app/components/FilterPills.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { formatDate } from "#app/lib/format.ts";
import type { postListLoader } from "#app/lib/community-ops.server.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";

/** The operators' list of one kind of post (app/lib/community-ops.server.ts): edit, publish or withdraw, delete. */
export function PostAdminList({ title }: { title: string }) {
  const { kind, kinds, rows, page, language, confirm } = useLoaderData<typeof postListLoader>();
  const { t } = useTranslation("community");
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.delete("confirm");
  const here = location.pathname + (params.size ? `?${params}` : "");
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{title}</h2>
        <Link to={`/g/home/operations/PostEdit?kind=${kind}`} className="btn-primary">
          {t(`ops.new.${kind}`)}
        </Link>
      </div>
      {kinds.length > 1 ? (
        <FilterPills
          label={t("list.type")}
          links={kinds.map((k) => ({ key: k, to: `?kind=${k}`, label: t(`kinds.${k}`), current: k === kind }))}
        />
      ) : null}
      {confirm ? (
        <IntentConfirmStep
          id="delete-post-title"
          title={t("ops.deleteTitle")}
          question={t("ops.deleteQuestion", { title: confirm.title })}
          intent="delete"
          fields={{ postId: confirm.postId }}
          action={here}
          cancelTo={here}
          confirmLabel={t("ops.delete")}
          cancelLabel={t("ops.cancel")}
          danger
        />
      ) : null}
      {rows.length === 0 ? (
        <EmptyState message={t("ops.empty")} />
      ) : (
        <ul className="space-y-3">
          {rows.map((p) => {
            const formId = `post-${p.postId}`;
            return (
              <li key={p.postId} className="card space-y-2" data-testid="ops-post">
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="font-semibold">
                    {p.version ? <span className="font-mono">{p.version} · </span> : null}
                    <span data-user-content="">{p.title}</span>
                  </h3>
                  <Badge tone={p.published ? "ok" : "off"}>{t(p.published ? "ops.published" : "ops.draft")}</Badge>
                  {!p.titleEn || !p.titleZh ? <Badge tone="wait">{t("ops.oneLanguage")}</Badge> : null}
                </div>
                <p className="text-xs text-slate-600">
                  {t("ops.updated")}: {formatDate(p.updatedAt, language, true)}
                  {p.kind === "event" ? (
                    <>
                      {" "}
                      · {t("event.startsAt")}: {formatDate(p.startsAt, language, true)} ·{" "}
                      {t("ops.signups", { count: p.signups, capacity: p.capacity ?? 0 })}
                    </>
                  ) : null}
                  {p.kind === "announcement" ? (
                    <>
                      {" "}
                      · {formatDate(p.activeFrom, language, true)} – {formatDate(p.activeTo, language, true)}
                    </>
                  ) : null}
                </p>
                <Form method="post" id={formId} action={here} className="flex flex-wrap gap-2">
                  <input type="hidden" name="postId" value={p.postId} />
                  <Link to={`/g/home/operations/PostEdit?postId=${p.postId}`} className="btn-secondary text-sm">
                    {t("ops.editAction")}
                  </Link>
                  {p.kind === "event" ? (
                    <Link to={`/g/home/operations/Signups?eventId=${p.postId}`} className="btn-secondary text-sm">
                      {t("ops.viewSignups")}
                    </Link>
                  ) : null}
                  {p.published ? (
                    <button type="submit" name="intent" value="unpublish" className="btn-secondary text-sm">
                      {t("ops.unpublish")}
                    </button>
                  ) : (
                    <button type="submit" name="intent" value="publish" className="btn-primary text-sm">
                      {t("ops.publish")}
                    </button>
                  )}
                  <ConfirmSubmit
                    formId={formId}
                    name="intent"
                    value="delete"
                    label={t("ops.delete")}
                    title={t("ops.deleteTitle")}
                    question={t("ops.deleteQuestion", { title: p.title })}
                    confirmLabel={t("ops.delete")}
                    className="btn-danger text-sm"
                  />
                </Form>
              </li>
            );
          })}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
