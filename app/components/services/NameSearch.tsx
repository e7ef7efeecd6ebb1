import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/**
 * The GET form that narrows an operations list of services to a name (it works without JavaScript: the
 * name lands in the URL the loader reads). `keep` are the list's other query fields; `clearTo` is the list
 * without the name.
 */
export function ServiceNameSearch({
  id,
  name,
  keep,
  clearTo,
}: {
  id: string;
  name: string;
  keep: Record<string, string>;
  clearTo: string;
}) {
  const { t } = useTranslation("services");
  return (
    <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
      {Object.entries(keep).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <div>
        <label htmlFor={id} className="label">
          {t("list.search")}
        </label>
        <input id={id} name="name" defaultValue={name} maxLength={50} className="input" />
      </div>
      <button type="submit" className="btn-secondary">
        {t("list.searchButton")}
      </button>
      {name ? (
        <Link to={clearTo} className="link text-sm">
          {t("list.clear")}
        </Link>
      ) : null}
    </Form>
  );
}
