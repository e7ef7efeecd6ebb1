import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * The filters of a list as a GET form (so a filtered list is a link and works without JavaScript): the
 * fields, then Search and a Reset link back to the unfiltered list. `grid` sets the columns on wide screens.
 */
export function ListFilterForm({
  label,
  action,
  grid,
  searchLabel,
  resetLabel,
  resetTo,
  children,
}: {
  label: string;
  action?: string;
  grid: string;
  searchLabel: string;
  resetLabel: string;
  resetTo: string;
  children: ReactNode;
}) {
  return (
    <Form method="get" action={action} aria-label={label} className={`card grid gap-3 !p-4 sm:grid-cols-2 ${grid}`}>
      {children}
      <div className="flex items-end gap-2">
        <button type="submit" className="btn-primary">
          {searchLabel}
        </button>
        <Link to={resetTo} className="btn-secondary">
          {resetLabel}
        </Link>
      </div>
    </Form>
  );
}

/** A choice among options, the first one meaning "no filter". */
export function SelectFilter({
  id,
  name = id,
  label,
  value,
  allLabel,
  options,
}: {
  id: string;
  name?: string;
  label: string;
  value: string | number | undefined;
  allLabel: string;
  /** `userContent`: the label is the user's own data (a member's name), not a word of the portal. */
  options: { value: string | number; label: string; userContent?: boolean }[];
}) {
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value ?? ""} className="input">
        <option value="">{allLabel}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value} data-user-content={o.userContent ? "" : undefined}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** One end of a date range (YYYY-MM-DD). */
export function DateFilter({
  id,
  name = id,
  label,
  value,
}: {
  id: string;
  name?: string;
  label: string;
  value: string | undefined;
}) {
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <input id={id} name={name} type="date" defaultValue={value ?? ""} className="input" />
    </div>
  );
}
