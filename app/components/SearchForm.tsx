import { Form } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * The GET search form above a list: a name to search for and one filter whose first option is "all".
 * It works without JavaScript (the query lands in the URL the loader reads). `children` come after the
 * submit button (a reset link, a hidden field).
 */
export function SearchForm({
  idPrefix,
  search,
  filter,
  submit,
  children,
}: {
  idPrefix: string;
  search: { label: string; value: string };
  filter: {
    name: string;
    label: string;
    value: string;
    allLabel: string;
    options: { value: string | number; label: string }[];
  };
  submit: { label: string; className: string };
  children?: ReactNode;
}) {
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3" role="search">
      <div>
        <label htmlFor={`${idPrefix}-name`} className="label">
          {search.label}
        </label>
        <input id={`${idPrefix}-name`} name="name" defaultValue={search.value} maxLength={50} className="input" />
      </div>
      <div>
        <label htmlFor={`${idPrefix}-${filter.name}`} className="label">
          {filter.label}
        </label>
        <select id={`${idPrefix}-${filter.name}`} name={filter.name} defaultValue={filter.value} className="input">
          <option value="">{filter.allLabel}</option>
          {filter.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className={submit.className}>
        {submit.label}
      </button>
      {children}
    </Form>
  );
}
