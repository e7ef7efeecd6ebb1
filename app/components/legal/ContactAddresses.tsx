import { useTranslation } from "react-i18next";
import type { ContactAddresses as Addresses } from "#contract/legal-codes.ts";

/**
 * The contact page's addresses as operators set them (docs/decisions/089). An address nobody set is not
 * invented: the page says so and points to the form below, which reaches support in any case.
 */
export function ContactAddresses({ contact }: { contact: Addresses }) {
  const { t } = useTranslation("legal");
  const rows = [
    { key: "support", email: contact.supportEmail },
    { key: "partners", email: contact.partnersEmail },
  ] as const;
  return (
    <section className="mt-8" aria-labelledby="contact-addresses-title">
      <h2 id="contact-addresses-title" className="text-xl font-semibold text-slate-900">
        {t("public.addresses")}
      </h2>
      <dl className="mt-3 space-y-3" data-testid="contact-addresses">
        {rows.map((r) => (
          <div key={r.key}>
            <dt className="font-medium text-slate-900">{t(`public.${r.key}`)}</dt>
            <dd className="mt-1 text-slate-700">
              {r.email ? (
                <a className="link" href={`mailto:${r.email}`} data-user-content="">
                  {r.email}
                </a>
              ) : (
                t("public.notConfigured")
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
