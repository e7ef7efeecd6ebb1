import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { LegalSection } from "#contract/legal-codes.ts";
import { formatDate } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";

export type TextPageData = {
  title: string;
  intro: string;
  sections: LegalSection[];
  /** The product's draft (locales/<lang>/pages.json): no operator has saved this page yet. */
  draft: boolean;
  updatedAt: string | null;
};

/**
 * A page of prose (the legal and contact pages; docs/decisions/089): an operator's saved text, shown as what
 * they wrote (`data-user-content`), or the product's draft, marked as not reviewed yet.
 */
export function TextPage({ text, children }: { text: TextPageData; children?: ReactNode }) {
  const { t, i18n } = useTranslation("legal");
  return (
    <article className="mx-auto max-w-3xl px-4 py-10">
      {text.draft ? (
        <p
          className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          data-testid="legal-draft"
        >
          {t("public.draft")}
        </p>
      ) : null}
      <div {...(text.draft ? {} : { "data-user-content": "" })}>
        <h1 className="text-3xl font-semibold text-slate-900">{text.title}</h1>
        <p className="mt-4 text-slate-600">{text.intro}</p>
      </div>
      {text.updatedAt ? (
        <p className="mt-2 text-sm text-slate-600">
          {t("public.updated", { date: formatDate(text.updatedAt, i18n.language as Language) })}
        </p>
      ) : null}
      {children}
      <div {...(text.draft ? {} : { "data-user-content": "" })}>
        {text.sections.map((s, i) => (
          <section key={i} className="mt-8">
            {s.heading ? <h2 className="text-xl font-semibold text-slate-900">{s.heading}</h2> : null}
            {s.body.map((p, j) => (
              <p key={j} className="mt-3 leading-relaxed text-slate-700">
                {p}
              </p>
            ))}
          </section>
        ))}
      </div>
    </article>
  );
}
