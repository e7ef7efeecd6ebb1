import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { Project } from "#contract/public-chain.ts";
import { ProjectStatus } from "#contract/public-chain-codes.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { SubmitButton } from "#app/components/form-parts.tsx";
import { CopyField } from "#app/components/CopyField.tsx";
import { CopyableText } from "./KeyPanel.tsx";

/** The manual's page on the JSON-RPC endpoint (locales/<lang>/manual.json `contract-deployment`). */
export const RPC_GUIDE = "/g/main/documentation?page=contract-deployment";

type Shown = { apiKey: string | null; regenerated: boolean } | null;

/** The §4 moves the user may make from the project's status (docs/decisions/026's table). */
export function ProjectActions({ project: p, here }: { project: Project; here: string }) {
  const { t } = useTranslation("publicChain");
  const canEnable = (
    [ProjectStatus.TO_BE_ENABLED, ProjectStatus.PUBLISHED, ProjectStatus.DEACTIVATED] as number[]
  ).includes(p.status);
  if (!canEnable && p.status !== ProjectStatus.ENABLED && p.status !== ProjectStatus.FAILED) {
    return (
      <p className="text-sm text-slate-600" data-testid="project-waiting">
        {t("project.waiting")}
      </p>
    );
  }
  return (
    <Form method="post" action={here} id="project-move" className="flex flex-wrap gap-2">
      {canEnable ? (
        <SubmitButton intent="enable" className="btn-primary">
          {t("project.enable")}
        </SubmitButton>
      ) : null}
      {p.status === ProjectStatus.ENABLED ? (
        <ConfirmSubmit
          formId="project-move"
          name="intent"
          value="deactivate"
          label={t("project.deactivate")}
          className="btn-danger"
          title={t("confirm.deactivate.title")}
          question={t("confirm.deactivate.question", { name: p.name })}
          confirmLabel={t("confirm.deactivate.confirm")}
        />
      ) : null}
      {p.status === ProjectStatus.FAILED ? (
        <SubmitButton intent="redeploy" className="btn-primary">
          {t("project.redeploy")}
        </SubmitButton>
      ) : null}
    </Form>
  );
}

/** The endpoints and the key: shown on request (selectable, copyable), regenerated, enabled or disabled. */
export function ProjectKeyCard({
  project: p,
  origin,
  here,
  shown,
}: {
  project: Project;
  origin: string;
  here: string;
  shown: Shown;
}) {
  const { t } = useTranslation("publicChain");
  const key = shown?.apiKey ?? null;
  return (
    <section className="card space-y-4" data-testid="key-card">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold">{t("key.title")}</h2>
        <Link className="link text-sm" to={RPC_GUIDE} data-testid="rpc-guide">
          {t("key.guide")}
        </Link>
      </div>
      {!p.keyProvisioned ? (
        <p className="text-sm text-slate-600" data-testid="key-pending">
          {t("key.pending")}
        </p>
      ) : (
        <>
          <dl className="space-y-3 text-sm">
            <div>
              <dt className="font-medium text-slate-700">{t("key.pathEndpoint")}</dt>
              <dd className="mt-1">
                {key ? (
                  <CopyField
                    value={`${origin}/chain/rpc/${key}`}
                    label={t("key.pathEndpoint")}
                    testId="endpoint-with-key"
                  />
                ) : (
                  <code className="font-mono">{`${origin}/chain/rpc/…${p.keyHint ?? ""}`}</code>
                )}
              </dd>
            </div>
            <div>
              <dt className="font-medium text-slate-700">{t("key.headerEndpoint")}</dt>
              <dd className="mt-1">
                <CopyField
                  value={`${origin}${p.headerEndpointPath}`}
                  label={t("key.headerEndpoint")}
                  testId="header-endpoint"
                />
                <p className="mt-1 text-slate-600">{t("key.headerHint")}</p>
              </dd>
            </div>
            <div>
              <dt className="font-medium text-slate-700">{t("key.key")}</dt>
              <dd className="mt-1">
                {key ? (
                  <CopyableText value={key} label={t("key.key")} testId="api-key" />
                ) : (
                  <code className="font-mono" data-testid="key-hint">{`…${p.keyHint ?? ""}`}</code>
                )}
                <p className="mt-1 text-xs text-slate-600">
                  {p.keyEnabled ? t("key.enabledState") : t("key.disabledState")}
                </p>
                {shown?.regenerated ? (
                  <p role="status" className="mt-1 text-xs text-amber-800">
                    {t("key.regenerated")}
                  </p>
                ) : null}
              </dd>
            </div>
          </dl>
          <Form method="post" action={here} id="key-actions" className="flex flex-wrap gap-2">
            {!key ? (
              <SubmitButton intent="showKey" className="btn-secondary">
                {t("key.show")}
              </SubmitButton>
            ) : null}
            <ConfirmSubmit
              formId="key-actions"
              name="intent"
              value="regenerateKey"
              label={t("key.regenerate")}
              className="btn-secondary"
              title={t("confirm.regenerateKey.title")}
              question={t("confirm.regenerateKey.question", { name: p.name })}
              confirmLabel={t("confirm.regenerateKey.confirm")}
            />
            {p.keyEnabled ? (
              <ConfirmSubmit
                formId="key-actions"
                name="intent"
                value="disableKey"
                label={t("key.disable")}
                className="btn-danger"
                title={t("confirm.disableKey.title")}
                question={t("confirm.disableKey.question", { name: p.name })}
                confirmLabel={t("confirm.disableKey.confirm")}
              />
            ) : (
              <SubmitButton intent="enableKey" className="btn-primary">
                {t("key.enable")}
              </SubmitButton>
            )}
          </Form>
        </>
      )}
    </section>
  );
}
