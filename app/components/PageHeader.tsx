import type { ReactNode } from "react";

/**
 * The heading row of a page: the page's one <h1>, an optional breadcrumb or way back above it, an optional
 * description under it, and optional actions (links, buttons, forms) on the right, wrapping below on a phone.
 * `titleClassName` sizes the heading (the console's pages use the default; public pages a larger one).
 */
export function PageHeader({
  title,
  description,
  actions,
  breadcrumb,
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
  titleClassName?: string;
  titleId?: string;
  titleTestId?: string;
  className?: string;
  testId?: string;
}) {
  const heading = (
    <>
      {breadcrumb ? <div className="mb-1 text-sm">{breadcrumb}</div> : null}
      <h1 id={titleId} className={titleClassName} data-testid={titleTestId}>
        {title}
      </h1>
      {description ? <div className="mt-1 text-sm text-slate-600">{description}</div> : null}
    </>
  );
  return (
    <div
      className={["flex flex-wrap items-center justify-between gap-3", className ?? ""].filter(Boolean).join(" ")}
      data-testid={testId}
    >
      <div className="min-w-0">{heading}</div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}
