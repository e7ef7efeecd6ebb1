import { FormProvider, getFormProps, getInputProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { Form, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { applySchema, type JoinView } from "#contract/participation.ts";
import type { DataOf } from "#contract/paths.ts";
import { inLanguage, nodeLabel } from "#app/components/details.tsx";
import { ErrorList, FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

export type Role = DataOf<"/sys/chainAppInfo/queryRolesForAppList">["page"]["rows"][number];
export type City = DataOf<"/sys/chainAppInfo/queryReleaseCitysForAppList">["page"]["rows"][number];

/** What the participant's detail answers for a refused application: Conform's reply. */
export type ApplyActionData = { kind: "apply"; result: SubmissionResult<string[]> };

/** The request to join a service: a role, city nodes and the identity certificate its mode asks for (§5). */
export function ApplyForm({
  service,
  roles,
  cities,
  language,
}: {
  service: JoinView;
  roles: Role[];
  cities: City[];
  language: Language;
}) {
  const { t } = useTranslation("participation");
  const actionData = useActionData<ApplyActionData | object>();
  const [form, fields] = useSchemaForm(
    applySchema,
    actionData && "kind" in actionData && actionData.kind === "apply" ? actionData.result : undefined,
    { id: "apply" },
  );
  const chosen = new Set([fields.cityNodeIds.initialValue ?? []].flat().map(String));
  const mode = service.certificateMode;
  return (
    <section className="card space-y-4" aria-labelledby="apply-title">
      <h2 id="apply-title" className="text-lg font-semibold">
        {t("apply.title")}
      </h2>
      <p className="text-sm text-slate-600">{t("apply.intro")}</p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="appId" value={service.appId} />
          <input type="hidden" name="certificateMode" value={mode} />
          <fieldset>
            <legend className="label">{t("apply.role")}</legend>
            <div className="space-y-2">
              {roles.map((r) => (
                <label key={r.roleId} className="flex items-start gap-2 text-sm">
                  <input
                    type="radio"
                    name={fields.roleId.name}
                    value={r.roleId}
                    defaultChecked={String(fields.roleId.initialValue ?? "") === String(r.roleId)}
                    className="mt-1"
                  />
                  <span>
                    <span className="font-medium">{r.name}</span>{" "}
                    <span className="text-slate-500">{r.description}</span>
                    <br />
                    <span className="text-xs text-slate-500">
                      {t("detail.functions")}: {r.functions.join(", ")}
                    </span>
                  </span>
                </label>
              ))}
            </div>
            <ErrorList id={fields.roleId.errorId} errors={fields.roleId.errors} />
          </fieldset>
          <fieldset>
            <legend className="label">{t("apply.nodes")}</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {cities.map((c) => (
                <label key={c.cityNodeId} className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    name={fields.cityNodeIds.name}
                    value={c.cityNodeId}
                    defaultChecked={chosen.has(String(c.cityNodeId))}
                    className="mt-1"
                  />
                  <span>
                    {nodeLabel(c, language)}{" "}
                    <span className="text-xs text-slate-500">
                      ({inLanguage(c.operator, c.operatorZh, language)}) ·{" "}
                      {c.released
                        ? t("apply.released")
                        : t("apply.orderCost", { amount: formatUsd(c.orderCents, language) })}
                    </span>
                  </span>
                </label>
              ))}
            </div>
            <ErrorList id={fields.cityNodeIds.errorId} errors={fields.cityNodeIds.errors} />
          </fieldset>
          <fieldset className="space-y-3">
            <legend className="label">{t("apply.mode", { mode: t(`modes.${mode}`) })}</legend>
            <p className="text-sm text-slate-600">{t(`apply.mode${mode}`)}</p>
            {mode === 3 ? (
              <>
                <div>
                  <label htmlFor={fields.publicKey.id} className="label">
                    {t("apply.publicKey")}
                  </label>
                  <textarea
                    {...getTextareaProps(fields.publicKey)}
                    key={fields.publicKey.key}
                    rows={5}
                    className="input font-mono text-xs"
                  />
                  <ErrorList id={fields.publicKey.errorId} errors={fields.publicKey.errors} />
                </div>
                <div>
                  <label htmlFor={fields.testData.id} className="label">
                    {t("apply.testData")}
                  </label>
                  <input
                    {...getInputProps(fields.testData, { type: "text" })}
                    key={fields.testData.key}
                    className="input"
                  />
                  <ErrorList id={fields.testData.errorId} errors={fields.testData.errors} />
                </div>
                <div>
                  <label htmlFor={fields.signature.id} className="label">
                    {t("apply.signature")}
                  </label>
                  <textarea
                    {...getTextareaProps(fields.signature)}
                    key={fields.signature.key}
                    rows={2}
                    className="input font-mono text-xs"
                  />
                  <ErrorList id={fields.signature.errorId} errors={fields.signature.errors} />
                </div>
              </>
            ) : null}
            {mode === 2 ? (
              <div className="grid gap-3 sm:grid-cols-2">
                <div>
                  <label htmlFor={fields.password.id} className="label">
                    {t("apply.password")}
                  </label>
                  <input
                    {...getInputProps(fields.password, { type: "password" })}
                    key={fields.password.key}
                    autoComplete="new-password"
                    className="input"
                    aria-describedby={`${fields.password.id}-hint`}
                  />
                  <p id={`${fields.password.id}-hint`} className="mt-1 text-xs text-slate-500">
                    {t("apply.passwordHint")}
                  </p>
                  <ErrorList id={fields.password.errorId} errors={fields.password.errors} />
                </div>
                <div>
                  <label htmlFor={fields.confirmPassword.id} className="label">
                    {t("apply.confirmPassword")}
                  </label>
                  <input
                    {...getInputProps(fields.confirmPassword, { type: "password" })}
                    key={fields.confirmPassword.key}
                    autoComplete="new-password"
                    className="input"
                  />
                  <ErrorList id={fields.confirmPassword.errorId} errors={fields.confirmPassword.errors} />
                </div>
              </div>
            ) : null}
          </fieldset>
          <SubmitButton intent="apply" className="btn-primary">
            {t("apply.submit")}
          </SubmitButton>
        </Form>
      </FormProvider>
    </section>
  );
}
