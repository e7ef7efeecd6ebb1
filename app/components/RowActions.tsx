import { lazy, Suspense, useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ITEM, ItemElement, type RowMenuItem } from "./row-items.tsx";

export type { RowMenuItem } from "./row-items.tsx";

/*
 * A row's actions (issue 16, docs/decisions/027): one main action beside a "More" menu holding the others.
 * With JavaScript the menu is a Headless UI Menu (keyboard, focus, Escape; app/components/RowMenu.tsx, a chunk
 * fetched once the page has hydrated); until it arrives and without JavaScript the same items are inside a
 * <details> element, which opens without scripts. Every list with row actions uses this component; a screen adds
 * an item by adding it to the `more` list it builds.
 */

/** The scripted menu, a chunk of its own fetched once the page has hydrated. */
const RowMenu = lazy(() => import("./RowMenu.tsx"));

/**
 * `main`: the row's main action (any element), shown as is. `more`: the other actions; the menu is left out
 * when there are none. `name`: what the row is about, for the menu button's accessible name.
 */
export function RowActions({
  name,
  main,
  more,
  children,
}: {
  name: string;
  main?: ReactNode;
  more: RowMenuItem[];
  children?: ReactNode;
}) {
  const { t } = useTranslation("common");
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const button = (
    <>
      {t("rowActions.more")}
      <span className="sr-only" data-user-content="">
        {" "}
        {t("rowActions.of", { name })}
      </span>
    </>
  );
  const listed = (
    <details className="group" data-testid="row-more-details">
      <summary className="link cursor-pointer list-none" data-testid="row-more">
        {button}
        <span aria-hidden="true"> ▾</span>
      </summary>
      <ul className="mt-1 min-w-44 rounded-md bg-white py-1 ring-1 ring-slate-200" data-testid="row-menu">
        {more.map((item) => (
          <li key={item.key}>
            <ItemElement item={item} className={`${ITEM} hover:bg-slate-100`} />
          </li>
        ))}
      </ul>
    </details>
  );
  return (
    <div className="flex flex-wrap items-start gap-x-3 gap-y-1 text-sm" data-testid="row-actions">
      {main}
      {more.length === 0 ? null : hydrated ? (
        <Suspense fallback={listed}>
          <RowMenu button={button} more={more} />
        </Suspense>
      ) : (
        listed
      )}
      {children}
    </div>
  );
}
