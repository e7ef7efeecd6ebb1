import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { WizardStep } from "#contract/service-wizard.ts";
import { SubmitButton } from "#app/components/form-parts.tsx";
import { Table, td } from "#app/components/Table.tsx";

/** The steps of this appState as a list of links; steps not reached yet are shown but not linked. */
export function Stepper({
  steps,
  allowed,
  current,
  href,
}: {
  steps: readonly WizardStep[];
  allowed: readonly WizardStep[];
  current: WizardStep;
  href: (s: WizardStep) => string;
}) {
  const { t } = useTranslation("wizard");
  if (steps.length < 2) return null;
  return (
    <nav aria-label={t("steps.label")}>
      <ol className="flex flex-wrap gap-2 text-sm">
        {steps.map((s, i) => {
          const label = `${i + 1}. ${t(`steps.${s}`)}`;
          // A step not open yet is dashed, not faded: its label keeps the contrast of text (WCAG 1.4.3).
          const cls =
            s === current
              ? "border-brand-600 bg-brand-50 font-semibold text-brand-700"
              : allowed.includes(s)
                ? "border-slate-200 text-slate-600"
                : "border-dashed border-slate-300 text-slate-600";
          return (
            <li key={s}>
              {allowed.includes(s) && s !== current ? (
                <Link to={href(s)} className={`block rounded-md border px-3 py-1 hover:bg-slate-50 ${cls}`}>
                  {label}
                </Link>
              ) : (
                <span
                  aria-current={s === current ? "step" : undefined}
                  className={`block rounded-md border px-3 py-1 ${cls}`}
                >
                  {label}
                  {s === current ? <span className="sr-only"> ({t("steps.current")})</span> : null}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** The confirm step of a deletion (works the same with and without JavaScript). */
export function ConfirmDelete({
  action,
  kind,
  id,
  name,
  cancelTo,
}: {
  action: string;
  kind: string;
  id: number;
  name: string;
  cancelTo: string;
}) {
  const { t } = useTranslation("wizard");
  return (
    <section role="alertdialog" aria-labelledby="confirm-title" className="card border-red-200 bg-red-50">
      <h2 id="confirm-title" className="font-semibold text-red-800">
        {t("confirm.title", { name })}
      </h2>
      <p className="mt-1 text-sm text-red-700">{t("confirm.body")}</p>
      <Form method="post" action={action} className="mt-4 flex gap-2">
        <input type="hidden" name="kind" value={kind} />
        <input type="hidden" name="id" value={id} />
        <SubmitButton intent="delete" className="btn-danger">
          {t("actions.confirmDelete")}
        </SubmitButton>
        <Link to={cancelTo} className="btn-secondary">
          {t("actions.cancel")}
        </Link>
      </Form>
    </section>
  );
}

/** A small table of saved items with a delete link per row (the link opens the confirm step). */
export function ItemTable({
  caption,
  empty,
  head,
  rows,
}: {
  caption: string;
  empty: string;
  head: string[];
  rows: { key: string | number; cells: ReactNode[]; deleteTo?: string; deleteLabel?: string }[];
}) {
  const { t } = useTranslation("wizard");
  if (rows.length === 0)
    return (
      <p className="rounded-md border border-dashed border-slate-300 p-4 text-center text-sm text-slate-500">{empty}</p>
    );
  return (
    <Table label={caption} head={[...head, <span className="sr-only">{t("actions.delete")}</span>]}>
      {rows.map((r) => (
        <tr key={r.key} data-testid="wizard-item">
          {r.cells.map((c, i) => (
            <td key={i} className={td}>
              {c}
            </td>
          ))}
          <td className={`${td} text-right`}>
            {r.deleteTo ? (
              <Link to={r.deleteTo} className="link text-red-700" aria-label={r.deleteLabel}>
                {t("actions.delete")}
              </Link>
            ) : null}
          </td>
        </tr>
      ))}
    </Table>
  );
}
