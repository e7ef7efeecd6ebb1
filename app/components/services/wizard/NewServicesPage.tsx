import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { DataOf } from "#contract/paths.ts";
import type { CityNode } from "#contract/platform.ts";
import { previousStep, type AppState, type Draft, type WizardStep } from "#contract/service-wizard.ts";
import { MarketNotice } from "#app/components/market/MarketNotice.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import type { Language } from "#app/lib/i18n.ts";
import { UploadActionDataProvider, useActionDataWithUploads } from "#app/lib/use-upload.ts";
import type { ActionData } from "#app/lib/wizard-forms.ts";
import { wizardUrl } from "#app/lib/wizard-urls.ts";
import { NodesStep } from "./nodes.tsx";
import { SubmittedProgress } from "./Progress.tsx";
import { ConfirmDelete, Stepper } from "./shared.tsx";
import {
  AttachmentsSection,
  BasicStep,
  CertificateStep,
  CostStep,
  CostTable,
  FunctionsStep,
  PackagesStep,
  RolesStep,
} from "./steps.tsx";

/** What the wizard's route loads (app/routes/g.home.PermissionedServices.PublishedServices_.NewServices.tsx). */
export type NewServicesData = SerializeFrom<{
  appState: AppState;
  appId: number | null;
  step: WizardStep;
  steps: WizardStep[];
  allowed: WizardStep[];
  draft: Draft | null;
  source: Draft | null;
  catalogue: CityNode[];
  confirming: { kind: string; id: number; name: string } | null;
  market: { packageId: number; name: string; language: DataOf<"/sys/market/detail">["language"] } | null;
  /** Whether a Fabric network is connected (FABRIC_PEER_ENDPOINT): Go and Java chaincode run only there. */
  fabricConnected: boolean;
  language: Language;
}>;

/** The body of the service publish wizard: the step's form, or the submitted draft's status once it is not editable. */
export function NewServicesPage({
  appState,
  appId,
  step,
  steps,
  allowed,
  draft,
  source,
  catalogue,
  confirming,
  market,
  fabricConnected,
  language,
}: NewServicesData) {
  // With JavaScript, the forms with a file upload by XMLHttpRequest (with progress): their action's answer
  // arrives here as if Remix had submitted them (app/lib/use-upload.ts).
  const [actionData, deliverUpload] = useActionDataWithUploads<ActionData>();
  const { t } = useTranslation("wizard");
  const view = (draft ?? source) as Draft | null;
  const action = wizardUrl(appState, appId, step, market ? { market: String(market.packageId) } : {});
  const back = previousStep(appState, step);
  const backTo = back ? wizardUrl(appState, appId, back) : "";
  const deleteHref = (kind: string, id: number) => wizardUrl(appState, appId, step, { confirm: `${kind}-${id}` });
  const common = { action, actionData, backTo };

  if (draft && !draft.editable) {
    return (
      <div className="space-y-6">
        {/* Once submitted, the page says where the service is and what comes next (issue 30 item 14). */}
        <PageHeader title={t("submitted.pageTitle", { name: draft.basic.name })} />
        <section className="card space-y-3" data-testid="wizard-status">
          <h2 className="text-lg font-semibold">
            {t("submitted.title", { name: draft.basic.name, version: draft.basic.version })}
          </h2>
          <p>{t("submitted.status", { status: t(`states.${draft.verState}`) })}</p>
          <p className="text-sm text-slate-600">{t("submitted.notEditable")}</p>
          <h3 className="pt-2 font-semibold">{t("progress.heading")}</h3>
          <SubmittedProgress verState={draft.verState} />
          <CostTable view={draft} language={language} />
          <Link to="/g/home/PermissionedServices/PublishedServices" className="link">
            {t("actions.toList")}
          </Link>
        </section>
      </div>
    );
  }

  return (
    <UploadActionDataProvider value={deliverUpload}>
      <div className="space-y-6">
        <PageHeader title={t(`title.${appState}`)} />
        <Stepper steps={steps} allowed={allowed} current={step} href={(s) => wizardUrl(appState, appId, s)} />
        <h2 className="text-lg font-semibold" data-testid="wizard-step">
          {t(`steps.${step}`)}
        </h2>
        {confirming ? (
          <ConfirmDelete
            action={action}
            kind={confirming.kind}
            id={confirming.id}
            name={confirming.name}
            cancelTo={action}
          />
        ) : null}
        {market && step === "basic" ? <MarketNotice name={market.name} language={market.language} /> : null}
        {step === "basic" ? (
          <BasicStep
            appState={appState}
            view={view}
            action={action}
            actionData={actionData}
            attachmentsSlot={
              <AttachmentsSection
                view={draft}
                action={action}
                actionData={actionData}
                deleteHref={deleteHref}
                editable={!!draft?.editable}
              />
            }
          />
        ) : null}
        {/* Keyed by the saved items: once one is added the add form starts empty again, also with JavaScript. */}
        {view && step === "packages" ? (
          <PackagesStep
            key={view.packages.map((x) => x.packageId).join()}
            view={view}
            deleteHref={deleteHref}
            fabricConnected={fabricConnected}
            {...common}
          />
        ) : null}
        {view && step === "functions" ? (
          <FunctionsStep
            key={view.functions.map((x) => x.functionId).join()}
            view={view}
            deleteHref={deleteHref}
            {...common}
          />
        ) : null}
        {view && step === "roles" ? (
          <RolesStep key={view.roles.map((x) => x.roleId).join()} view={view} deleteHref={deleteHref} {...common} />
        ) : null}
        {view && step === "nodes" ? (
          <NodesStep view={view} catalogue={catalogue} language={language} {...common} />
        ) : null}
        {view && step === "certificate" ? <CertificateStep view={view} {...common} /> : null}
        {view && step === "cost" ? <CostStep view={view} language={language} {...common} /> : null}
      </div>
    </UploadActionDataProvider>
  );
}
