import { useTranslation } from "react-i18next";

type Section = { id?: string; heading: string; body: string[] };

/**
 * A page of prose from the `pages` namespace: { title, updated?, intro, sections: [{heading, body[]}] }.
 * The texts live in locales/en/pages.json and locales/zh-CN/pages.json.
 */
export function TextPage({ page }: { page: string }) {
  const { t } = useTranslation("pages");
  const sections = t(`${page}.sections`, { returnObjects: true }) as Section[];
  return (
    <article className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-semibold text-slate-900">{t(`${page}.title`)}</h1>
      <p className="mt-4 text-slate-600">{t(`${page}.intro`)}</p>
      {Array.isArray(sections)
        ? sections.map((s) => (
            <section key={s.heading} id={s.id} className="mt-8 scroll-mt-6">
              <h2 className="text-xl font-semibold text-slate-900">{s.heading}</h2>
              {s.body.map((p) => (
                <p key={p} className="mt-3 leading-relaxed text-slate-700">
                  {p}
                </p>
              ))}
            </section>
          ))
        : null}
    </article>
  );
}
