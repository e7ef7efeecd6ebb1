import { FormProvider, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { marketFormSchema, type MarketPackage } from "#contract/market.ts";
import { LANGUAGES } from "#contract/service-codes.ts";
import { FileField, SelectField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

const linesOf = (p: MarketPackage) =>
  p.functions.map((f) => `${f.func} | ${f.name} | ${f.inputFormat} | ${f.outputFormat}`).join("\n");

/** An operator's market entry: the package's fields, its functions one a line, and its zip. */
export function MarketEntryForm({
  entry,
  result,
  cancelTo,
}: {
  entry: MarketPackage | null;
  result?: SubmissionResult<string[]> | null;
  cancelTo: string;
}) {
  const { t } = useTranslation("market");
  const [form, fields] = useSchemaForm(marketFormSchema, result, {
    id: entry ? `market-${entry.marketPackageId}` : "market-new",
    defaultValue: entry
      ? {
          name: entry.name,
          language: entry.language,
          version: entry.version,
          descriptionEn: entry.descriptionEn,
          descriptionZh: entry.descriptionZh,
          mainPath: entry.mainPath,
          initParams: entry.initParams,
          functions: linesOf(entry),
        }
      : undefined,
  });
  const fileErrors = (result?.error?.file ?? undefined) as string[] | undefined;
  return (
    <section className="card space-y-4" aria-labelledby="market-form-title">
      <h2 id="market-form-title" className="text-lg font-semibold">
        {entry ? t("ops.edit", { name: entry.name }) : t("ops.new")}
      </h2>
      <FormProvider context={form.context}>
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          {entry ? <input type="hidden" name="marketPackageId" value={entry.marketPackageId} /> : null}
          <div className="grid gap-4 md:grid-cols-3">
            <TextField field={fields.name} label={t("ops.name")} />
            <SelectField
              field={fields.language}
              label={t("ops.language")}
              placeholder=""
              options={LANGUAGES.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
            />
            <TextField field={fields.version} label={t("ops.version")} />
            <TextField field={fields.mainPath} label={t("ops.mainPath")} />
            <TextField field={fields.initParams} label={t("ops.initParams")} />
          </div>
          <TextAreaField field={fields.descriptionEn} label={t("ops.descriptionEn")} rows={3} />
          <TextAreaField field={fields.descriptionZh} label={t("ops.descriptionZh")} rows={3} />
          <TextAreaField field={fields.functions} label={t("ops.functions")} hint={t("ops.functionsHint")} rows={5} />
          <FileField
            name="file"
            label={t("ops.file")}
            hint={t("ops.fileHint")}
            accept=".zip,application/zip"
            errors={fileErrors}
          />
          <div className="flex gap-2">
            <SubmitButton intent="save" className="btn-primary">
              {t("ops.save")}
            </SubmitButton>
            <Link to={cancelTo} className="btn-secondary">
              {t("ops.cancel")}
            </Link>
          </div>
        </Form>
      </FormProvider>
    </section>
  );
}
