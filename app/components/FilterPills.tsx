import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

export type FilterLink = { key: string | number; to: string; label: ReactNode; current: boolean };

/** A list's filters as a row of links, the chosen one marked as the current page (works without JavaScript). */
export function FilterPills({ label, links }: { label?: string; links: FilterLink[] }) {
  return (
    <nav aria-label={label} className="flex flex-wrap gap-2 text-sm">
      {links.map((l) => (
        <Link
          key={l.key}
          to={l.to}
          aria-current={l.current ? "page" : undefined}
          className={`rounded-full px-3 py-1 ${l.current ? "bg-brand-600 text-white" : "bg-white text-slate-700 ring-1 ring-slate-200"}`}
        >
          {l.label}
        </Link>
      ))}
    </nav>
  );
}
