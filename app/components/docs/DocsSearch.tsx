import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** The manual's search: a GET form (works without JavaScript), the words and, optionally, one language. */
export function DocsSearch({ q, lang }: { q: string; lang: string }) {
  const { t } = useTranslation("docs");
  return (
    <Form method="get" action="/g/main/documentation" role="search" className="flex flex-wrap items-end gap-2">
      <div className="min-w-48 flex-1">
        <label htmlFor="docs-q" className="label">
          {t("search.label")}
        </label>
        <input
          id="docs-q"
          name="q"
          type="search"
          defaultValue={q}
          maxLength={100}
          className="input"
          placeholder={t("search.placeholder")}
        />
      </div>
      <div>
        <label htmlFor="docs-lang" className="label">
          {t("search.language")}
        </label>
        <select id="docs-lang" name="lang" defaultValue={lang} className="input">
          <option value="">{t("search.both")}</option>
          <option value="en" lang="en">
            English
          </option>
          <option value="zh-CN" lang="zh-CN">
            中文
          </option>
        </select>
      </div>
      <button type="submit" className="btn-primary">
        {t("search.submit")}
      </button>
    </Form>
  );
}
