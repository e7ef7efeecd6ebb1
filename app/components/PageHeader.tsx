import type { ReactNode } from "react";

/**
 * The heading row of a page: the page's one <h1>, an optional breadcrumb or way back above it, an optional
 * description under it, and optional actions (links, buttons, forms) on the right, wrapping below on a phone.
 * `titleClassName` sizes the heading (the console's pages use the default; public pages a larger one).
 * `badges` (a status, a state) sit on the heading's line, outside the <h1>, so the heading's name stays the title;
 * `align` is how the heading and the actions line up when one is taller (a description, a breadcrumb).
 */
export function PageHeader({
  title,
  description,
  actions,
  breadcrumb,
  badges,
  align = "center",
  titleClassName = "text-xl font-semibold",
  titleId,
  titleTestId,
  className,
  testId,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  breadcrumb?: ReactNode;
  badges?: ReactNode;
  align?: "center" | "start";
  titleClassName?: string;
  titleId?: string;
  titleTestId?: string;
  className?: string;
  testId?: string;
}) {
  const h1 = (
    <h1 id={titleId} className={titleClassName} data-testid={titleTestId}>
      {title}
    </h1>
  );
  const heading = (
    <>
      {breadcrumb ? <div className="mb-1 text-sm">{breadcrumb}</div> : null}
      {badges ? (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          {h1}
          {badges}
        </div>
      ) : (
        h1
      )}
      {description ? <div className="mt-1 text-sm text-slate-600">{description}</div> : null}
    </>
  );
  return (
    <div
      className={[
        "flex flex-wrap justify-between gap-3",
        align === "start" ? "items-start" : "items-center",
        className ?? "",
      ]
        .filter(Boolean)
        .join(" ")}
      data-testid={testId}
    >
      <div className="min-w-0">{heading}</div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}
