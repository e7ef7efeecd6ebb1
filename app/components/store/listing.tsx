import { Form, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Participation } from "#contract/store.ts";
import { Pagination } from "#app/components/Pagination.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { ProductStatus } from "#contract/store-codes.ts";

/** A service's or product's cover, served by the Cover resource route; a plain tile when there is none. */
export function Cover({
  kind,
  id,
  name,
  hasCover,
  size = "h-20 w-20",
}: {
  kind: "app" | "product";
  id: number;
  name: string;
  hasCover: boolean;
  size?: string;
}) {
  const { t } = useTranslation("store");
  if (!hasCover) {
    return (
      <div
        className={`${size} flex shrink-0 items-center justify-center rounded-md bg-slate-100 text-2xl font-semibold text-slate-500`}
        aria-label={t("noCover")}
        role="img"
      >
        <span data-user-content="" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
      </div>
    );
  }
  return (
    <img
      src={`/g/home/AppStore/Cover?kind=${kind}&id=${id}`}
      alt={t("cover", { name })}
      data-user-content=""
      className={`${size} shrink-0 rounded-md object-cover`}
      loading="lazy"
    />
  );
}

const PARTICIPATION_CLASS: Record<Participation | "own", string> = {
  participated: "bg-green-100 text-green-800",
  reviewing: "bg-amber-100 text-amber-800",
  none: "bg-slate-100 text-slate-700",
  own: "bg-brand-50 text-brand-700",
};

/** §4 App participation display: Participated / Reviewing / Not participated (or the viewer's own service). */
export function ParticipationBadge({ participation, own }: { participation: Participation; own: boolean }) {
  const { t } = useTranslation("store");
  const key = own ? "own" : participation;
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${PARTICIPATION_CLASS[key]}`}
      data-testid="participation"
    >
      {t(`participation.${key}`)}
    </span>
  );
}

const STATUS_CLASS: Record<number, string> = {
  [ProductStatus.PENDING_SUBMIT]: "bg-slate-100 text-slate-700",
  [ProductStatus.PENDING_APPROVAL]: "bg-amber-100 text-amber-800",
  [ProductStatus.LISTED]: "bg-green-100 text-green-800",
  [ProductStatus.REJECTED]: "bg-red-100 text-red-800",
  [ProductStatus.REMOVED]: "bg-slate-200 text-slate-600",
};

/** §4 Product status. */
export function ProductStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("store");
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[status] ?? STATUS_CLASS[0]}`}
      data-testid="product-status"
    >
      {t(`status.${status}`)}
    </span>
  );
}

/** The average rating with its count, or "not rated yet". */
export function Rating({ average, count }: { average: number | null; count: number }) {
  const { t } = useTranslation("store");
  if (average === null || count === 0) return <span className="text-slate-500">{t("services.noRating")}</span>;
  const full = Math.round(average);
  return (
    <span>
      <span aria-hidden="true" className="text-amber-500">
        {"★".repeat(full)}
        {"☆".repeat(5 - full)}
      </span>{" "}
      {t("services.ratingValue", { average: average.toFixed(1), count })}
    </span>
  );
}

/** A store page's heading: title and intro, with a link or button beside them (`children`). */
export function StoreHeading({ title, intro, children }: { title: string; intro: string; children?: ReactNode }) {
  return <PageHeader title={title} description={intro} actions={children} align="start" />;
}

/** One page of a catalogue (services or products): its cards in two columns on wide screens, or `empty`. */
export function Catalogue({
  page,
  empty,
  children,
}: {
  page: { rows: unknown[]; pageIndex: number; pageSize: number; total: number };
  empty: string;
  children: ReactNode;
}) {
  return (
    <>
      {page.rows.length === 0 ? (
        <EmptyState message={empty} />
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">{children}</ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </>
  );
}

/** A catalogue card: the cover beside what `children` say about the service or product. */
export function CatalogueCard({
  kind,
  id,
  name,
  hasCover,
  testId,
  children,
}: {
  kind: "app" | "product";
  id: number;
  name: string;
  hasCover: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <li className="card flex gap-4 p-4" data-testid={testId}>
      <Cover kind={kind} id={id} name={name} hasCover={hasCover} />
      <div className="min-w-0 flex-1 space-y-1">{children}</div>
    </li>
  );
}

/** The head of a service's or product's page: large cover, name with its badge, summary, then `children`. */
export function ListingHeader({
  kind,
  id,
  name,
  hasCover,
  badge,
  summary,
  children,
}: {
  kind: "app" | "product";
  id: number;
  name: string;
  hasCover: boolean;
  badge: ReactNode;
  summary: string;
  children: ReactNode;
}) {
  return (
    <section className="card flex flex-wrap gap-6">
      <Cover kind={kind} id={id} name={name} hasCover={hasCover} size="h-32 w-32" />
      <div className="min-w-0 flex-1 space-y-2">
        <PageHeader title={name} badges={badge} />
        <p className="text-slate-700">{summary}</p>
        {children}
      </div>
    </section>
  );
}

/** Follow or Unfollow, posted to the page's own action with the listing's id (intent follow / unfollow). */
export function FollowButton({ idName, id, following }: { idName: string; id: number; following: boolean }) {
  const { t } = useTranslation("store");
  const location = useLocation();
  return (
    <Form method="post" action={location.pathname + location.search}>
      <input type="hidden" name={idName} value={id} />
      <button type="submit" name="intent" value={following ? "unfollow" : "follow"} className="btn-secondary">
        {t(following ? "service.unfollow" : "service.follow")}
      </button>
    </Form>
  );
}
