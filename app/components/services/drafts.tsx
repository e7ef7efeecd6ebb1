import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { WIZARD_STEPS } from "#contract/service-codes.ts";
import type { DraftSummary } from "#contract/service-wizard.ts";
import { BlockedLink } from "#app/components/BlockedAction.tsx";
import type { Block } from "#app/lib/blocked.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { NEW_SERVICES } from "#app/lib/services-urls.ts";
import { Table } from "#app/components/Table.tsx";

/** Where a draft resumes: its wizard at the furthest step it reached (any device, docs/decisions/029). */
export const resumeHref = (d: Pick<DraftSummary, "appState" | "appId" | "wizardStep">) =>
  `${NEW_SERVICES}?appState=${d.appState}&appId=${d.appId}&step=${d.wizardStep}`;

/** "step N of 7": the draft's furthest step among the wizard's seven. */
export const stepNumber = (d: Pick<DraftSummary, "wizardStep">) => WIZARD_STEPS.indexOf(d.wizardStep) + 1;

/** The caller's wizard drafts in Published services: "Draft · step N of 7 · Resume · Delete". */
export function DraftList({
  drafts,
  here,
  block,
  language,
}: {
  drafts: DraftSummary[];
  here: string;
  block: Block;
  language: Language;
}) {
  const { t } = useTranslation(["services", "wizard"]);
  if (drafts.length === 0) return null;
  const join = here.includes("?") ? "&" : "?";
  return (
    <section aria-labelledby="drafts-title" className="card">
      <h2 id="drafts-title" className="font-semibold">
        {t("drafts.title")}
      </h2>
      <Table
        label={t("drafts.title")}
        head={[t("list.name"), t("list.status"), zoneHeader(t, t("drafts.saved")), t("list.actions")]}
      >
        {drafts.map((d) => (
          <tr key={d.appVerId} data-testid="draft-row">
            <th scope="row" className="py-2 pr-4 text-left font-medium">
              {d.name} <span className="font-normal text-slate-600">{d.version}</span>
            </th>
            <td className="py-2 pr-4" data-testid="draft-step">
              {t(d.appState === "update" ? "drafts.upgradeStep" : "drafts.step", {
                n: stepNumber(d),
                total: WIZARD_STEPS.length,
                step: t(`wizard:steps.${d.wizardStep}`),
              })}
            </td>
            <td className="whitespace-nowrap py-2 pr-4">{formatDate(d.updatedAt, language, true, false)}</td>
            <td className="py-2">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <BlockedLink
                  compact
                  block={block}
                  action={d.appState === "update" ? "upgradeService" : "newService"}
                  className="link font-semibold"
                  to={resumeHref(d)}
                >
                  <span aria-label={t("drafts.resumeOf", { name: d.name })}>{t("drafts.resume")}</span>
                </BlockedLink>
                <Link
                  className="link text-red-700"
                  to={`${here}${join}confirm=discard&appVerId=${d.appVerId}`}
                  aria-label={t("drafts.deleteOf", { name: d.name })}
                >
                  {t("drafts.delete")}
                </Link>
              </div>
            </td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

/** The confirm step of deleting a draft: a panel on the page, so it works without JavaScript. */
export function DiscardPanel({ draft, cancelTo }: { draft: DraftSummary; cancelTo: string }) {
  const { t } = useTranslation("services");
  return (
    <section role="alertdialog" aria-labelledby="discard-title" className="card border-red-200 bg-red-50">
      <h2 id="discard-title" className="font-semibold text-red-800">
        {t("drafts.confirmTitle", { name: draft.name })}
      </h2>
      <p className="mt-1 text-sm text-red-800">
        {t(draft.appState === "update" ? "drafts.confirmUpgradeBody" : "drafts.confirmBody")}
      </p>
      <Form method="post" className="mt-4 flex gap-2">
        <input type="hidden" name="appId" value={draft.appId} />
        <input type="hidden" name="appVerId" value={draft.appVerId} />
        <button type="submit" name="intent" value="discardDraft" className="btn-danger">
          {t("drafts.confirmDelete")}
        </button>
        <Link to={cancelTo} className="btn-secondary">
          {t("common:actions.cancel")}
        </Link>
      </Form>
    </section>
  );
}
