import { FormProvider, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  TEST_SERVICE_PLATFORMS,
  TEST_SERVICE_SOURCES,
  testServiceFormSchema,
  type TestService,
} from "#contract/test-services.ts";
import { FileField, RadioGroupField, SelectField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

export type TestServiceFormMode = "create" | "edit" | "upgrade";

/**
 * The form of a test service (SPEC §3): name, version, platform, and its contracts as Solidity source or a
 * chaincode package (a zip of .sol files), the main contract and the constructor's init params. Works without
 * JavaScript (a multipart POST); an upgrade keeps the name and asks for a new version.
 */
export function TestServiceForm({
  mode,
  service,
  lastResult,
  fileErrors,
}: {
  mode: TestServiceFormMode;
  service: TestService | null;
  lastResult?: SubmissionResult<string[]> | null;
  fileErrors?: string[];
}) {
  const { t } = useTranslation("testServices");
  const [form, fields] = useSchemaForm(testServiceFormSchema, lastResult, {
    id: "test-service",
    defaultValue: service
      ? {
          name: service.name,
          version: mode === "upgrade" ? "" : service.version,
          platform: service.platform,
          sourceKind: service.sourceKind,
          source: service.sourceKind === "source" ? service.source : "",
          mainContract: service.mainContract,
          initParams: service.initParams,
        }
      : { sourceKind: "source", platform: "evm" },
  });
  return (
    <FormProvider context={form.context}>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="mt-6 space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        {mode === "upgrade" ? (
          <input type="hidden" name="name" value={service?.name ?? ""} />
        ) : (
          <TextField field={fields.name} label={t("fields.name")} />
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            field={fields.version}
            label={t("fields.version")}
            hint={
              mode === "upgrade" ? t("form.upgradeVersionHint", { version: service?.version }) : t("form.versionHint")
            }
          />
          <SelectField
            field={fields.platform}
            label={t("fields.platform")}
            options={TEST_SERVICE_PLATFORMS.map((p) => ({ value: p, label: t(`platforms.${p}`) }))}
          />
        </div>
        <p className="text-sm text-slate-600" data-testid="fabric-hint">
          {t("form.fabricHint")}
        </p>
        <RadioGroupField
          field={fields.sourceKind}
          legend={t("fields.sourceKind")}
          options={TEST_SERVICE_SOURCES.map((s) => ({ value: s, label: t(`sources.${s}`) }))}
        />
        <TextAreaField field={fields.source} label={t("fields.source")} hint={t("form.sourceHint")} rows={14} />
        <FileField
          name="file"
          label={t("fields.package")}
          hint={service?.packageName ? t("form.packageKept", { name: service.packageName }) : t("form.packageHint")}
          accept=".zip"
          errors={fileErrors}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.mainContract} label={t("fields.mainContract")} hint={t("form.mainContractHint")} />
          <TextField field={fields.initParams} label={t("fields.initParams")} hint={t("form.initParamsHint")} />
        </div>
        <SubmitButton intent="save" className="btn-primary">
          {t(`form.submit.${mode}`)}
        </SubmitButton>
      </Form>
    </FormProvider>
  );
}
