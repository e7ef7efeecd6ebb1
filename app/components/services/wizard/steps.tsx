import { FormProvider, getFormProps, useForm, type FormMetadata } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type * as z from "zod";
import {
  ATTACHMENT_TYPES,
  attachmentFormSchema,
  basicFormValue,
  basicInfoSchema,
  CERTIFICATE_MODES,
  certificateFormSchema,
  COVER_MAX_BYTES,
  COVER_TYPES,
  CROSS_PROTOCOLS,
  FRAMEWORKS,
  FUNC_TYPES,
  functionFormSchema,
  INDUSTRIES,
  defaultLanguageFor,
  languagesFor,
  MAIN_PATH_EXAMPLES,
  packageFormSchema,
  PAYMENT_CYCLES,
  PLATFORM_TYPES,
  roleFormSchema,
  submitFormSchema,
  type AppState,
  type Draft,
} from "#contract/service-wizard.ts";
import { CheckboxField, FileField, SelectField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { ErrorList, FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { Table } from "#app/components/Table.tsx";
import { UploadProgress } from "#app/components/UploadProgress.tsx";
import { formatSize, formatUsd } from "#app/lib/format-number.ts";
import type { Language } from "#app/lib/i18n.ts";
import { useSchemaForm, type SchemaFormOptions } from "#app/lib/use-schema-form.ts";
import { useUpload, type Upload } from "#app/lib/use-upload.ts";
import { ItemTable } from "./shared.tsx";
import { LanguageSupport } from "./languages.tsx";
import { resultFor, type ActionData } from "#app/lib/wizard-forms.ts";
import { coverUrl } from "#app/lib/wizard-urls.ts";
import { VerState } from "#contract/service-status.ts";

type Field = Parameters<typeof TextField>[0]["field"];
type Fields = Record<string, Field>;
const validateAs = "onBlur" as const;

export function StepNav({ backTo, children }: { backTo: string | null; children: React.ReactNode }) {
  const { t } = useTranslation("wizard");
  return (
    <div className="flex items-center justify-between gap-2 border-t border-slate-200 pt-4">
      {backTo ? (
        <Link to={backTo} className="btn-secondary">
          {t("actions.back")}
        </Link>
      ) : (
        <span />
      )}
      {children}
    </div>
  );
}

/** "Next" on the list steps: the backend checks the step is complete and remembers the furthest step. */
export function NextForm({ action, actionData }: { action: string; actionData?: ActionData }) {
  const { t } = useTranslation("wizard");
  const result = resultFor(actionData, "advance");
  const [form] = useForm({ id: "advance", lastResult: result });
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="flex flex-col items-end gap-2">
      <FormErrors id={form.errorId} errors={form.errors} />
      <SubmitButton intent="advance" className="btn-primary">
        {t("actions.next")}
      </SubmitButton>
    </Form>
  );
}

/**
 * A step's form: its Zod schema validates in the browser as the publisher types (from leaving a field,
 * then at every input), and the action's reply to its intent shows at the fields.
 */
function useStepForm<Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(
  schema: Schema,
  {
    intent,
    actionData,
    ...options
  }: { id: string; intent: string; actionData?: ActionData } & SchemaFormOptions<Schema>,
) {
  return useSchemaForm(schema, resultFor(actionData, intent), { shouldValidate: validateAs, ...options });
}

type DeleteHref = (kind: string, id: number) => string;
type StepProps = { view: Draft; action: string; actionData?: ActionData; backTo: string };
type ListStepProps = StepProps & { deleteHref: DeleteHref };

/** The delete link of a saved item's row (it opens the confirm step). */
function useDeleteLink(deleteHref: DeleteHref) {
  const { t } = useTranslation("wizard");
  return (kind: string, id: number, name: string) => ({
    deleteTo: deleteHref(kind, id),
    deleteLabel: t("actions.deleteItem", { name }),
  });
}

/**
 * The frame of the list steps (packages, functions, roles): what is saved (texts `<list>.intro`, `.list`,
 * `.empty`), the form that adds one more (its fields are the children; its button `actions.<intent>`, with
 * the upload's progress when it sends a file), and "Next".
 */
function ListStep<Schema extends Record<string, unknown>>({
  list,
  head,
  rows,
  form,
  intent,
  upload,
  action,
  actionData,
  backTo,
  children,
}: Omit<StepProps, "view"> &
  Pick<Parameters<typeof ItemTable>[0], "head" | "rows"> & {
    list: "packages" | "functions" | "roles";
    form: FormMetadata<Schema, string[]>;
    intent: string;
    upload?: Upload;
    children: React.ReactNode;
  }) {
  const { t } = useTranslation("wizard");
  return (
    <div className="space-y-6">
      <section className="card space-y-4">
        <p className="text-sm text-slate-600">{t(`${list}.intro`)}</p>
        <ItemTable caption={t(`${list}.list`)} empty={t(`${list}.empty`)} head={head} rows={rows} />
        <FormProvider context={form.context}>
          <Form
            method="post"
            action={action}
            encType={upload ? "multipart/form-data" : undefined}
            {...getFormProps(form)}
            className="grid gap-4 border-t border-slate-200 pt-4 md:grid-cols-2"
          >
            <div className="md:col-span-2">
              <FormErrors id={form.errorId} errors={form.errors} />
            </div>
            {children}
            <div className="space-y-3 md:col-span-2">
              {upload ? <UploadProgress upload={upload} /> : null}
              <SubmitButton intent={intent} className="btn-secondary" busy={upload?.busy}>
                {t(`actions.${intent}`)}
              </SubmitButton>
            </div>
          </Form>
        </FormProvider>
      </section>
      <StepNav backTo={backTo}>
        <NextForm action={action} actionData={actionData} />
      </StepNav>
    </div>
  );
}

/* ------------------------------------------ 1. basic ------------------------------------------- */

export function BasicStep({
  appState,
  view,
  action,
  actionData,
  attachmentsSlot,
}: {
  appState: AppState;
  view: Draft | null;
  action: string;
  actionData?: ActionData;
  attachmentsSlot: React.ReactNode;
}) {
  const { t } = useTranslation("wizard");
  const b = view?.basic;
  const upgrade = appState === "update" && view?.verState !== VerState.PENDING_SUBMIT;
  const upload = useUpload();
  const [form, fields] = useStepForm(basicInfoSchema, {
    id: "basic",
    intent: "saveBasic",
    actionData,
    // A new upgrade version starts without a number: it must differ from the running one.
    defaultValue: b ? { ...basicFormValue(b), version: upgrade ? "" : b.version } : { paymentCycle: "2" },
    onSubmit: upload.onSubmit,
  });
  const f = fields as unknown as Fields;
  const opts = (values: readonly string[], ns: string) => values.map((v) => ({ value: v, label: t(`${ns}.${v}`) }));
  const crossOn = form.value?.crossChain === "on";
  const freeEditable = appState === "add" || appState === "mod2";
  return (
    <div className="space-y-6">
      <FormProvider context={form.context}>
        <Form
          method="post"
          action={action}
          encType="multipart/form-data"
          {...getFormProps(form)}
          className="card space-y-6"
        >
          <p className="text-sm text-slate-600">{t("basic.intro")}</p>
          <FormErrors id={form.errorId} errors={form.errors} />
          <div className="grid gap-4 md:grid-cols-2">
            <TextField field={f.name} label={t("basic.name")} />
            {appState === "mod" ? (
              <div>
                <span className="label">{t("basic.version")}</span>
                <p className="text-sm">{b?.version}</p>
                <p className="text-xs text-slate-500">{t("basic.versionFixed")}</p>
                <input type="hidden" name="version" value={b?.version ?? ""} />
              </div>
            ) : (
              <TextField field={f.version} label={t("basic.version")} hint={t("basic.versionHint")} />
            )}
            <SelectField
              field={f.industry}
              label={t("basic.industry")}
              options={opts(INDUSTRIES, "industries")}
              placeholder={t("basic.choose")}
            />
            <SelectField
              field={f.framework}
              label={t("basic.framework")}
              options={opts(FRAMEWORKS, "frameworks")}
              placeholder={t("basic.choose")}
            />
            <div className="md:col-span-2">
              <LanguageSupport fabricConnected={null} />
            </div>
            <SelectField
              field={f.platformType}
              label={t("basic.platformType")}
              options={opts(PLATFORM_TYPES, "platforms")}
              placeholder={t("basic.choose")}
            />
            <SelectField
              field={f.paymentCycle}
              label={t("basic.paymentCycle")}
              options={opts(PAYMENT_CYCLES, "cycles")}
            />
            <TextField field={f.description} label={t("basic.description")} className="md:col-span-2" />
            <TextAreaField field={f.introduction} label={t("basic.introduction")} className="md:col-span-2" />
            <div className="md:col-span-2">
              {view?.cover ? (
                <div className="mb-2 flex items-center gap-3 text-sm text-slate-600">
                  <img
                    src={coverUrl(view.appId, view.cover.fileId)}
                    alt=""
                    width={48}
                    height={48}
                    className="h-12 w-12 rounded object-cover"
                    data-testid="cover-preview"
                  />
                  <span>{t("basic.coverKept", { name: view.cover.name })}</span>
                </div>
              ) : null}
              <FileField
                name="cover"
                label={t("basic.cover")}
                hint={t("basic.coverHint", {
                  types: COVER_TYPES.map((x) => x.toUpperCase()).join(", "),
                  mb: COVER_MAX_BYTES / (1024 * 1024),
                })}
                accept={COVER_TYPES.map((x) => `.${x}`).join(",")}
                errors={f.cover?.errors}
              />
            </div>
          </div>
          <fieldset className="grid gap-4 md:grid-cols-3">
            <legend className="mb-2 text-sm font-semibold">{t("basic.contact")}</legend>
            <TextField field={f.contactName} label={t("basic.contactName")} />
            <TextField field={f.contactMobile} label={t("basic.contactMobile")} type="tel" />
            <TextField field={f.contactEmail} label={t("basic.contactEmail")} type="email" />
          </fieldset>
          <fieldset className="grid gap-4 md:grid-cols-2">
            <legend className="mb-2 text-sm font-semibold">{t("basic.access")}</legend>
            <TextField field={f.webUrl} label={t("basic.webUrl")} type="url" />
            <TextField field={f.android} label={t("basic.android")} />
            <TextField field={f.ios} label={t("basic.ios")} />
            <TextField field={f.officialAccount} label={t("basic.officialAccount")} />
            <TextField field={f.miniProgram} label={t("basic.miniProgram")} />
            <TextAreaField field={f.apiInstructions} label={t("basic.apiInstructions")} rows={2} />
          </fieldset>
          <fieldset className="grid gap-4 md:grid-cols-2">
            <legend className="mb-2 text-sm font-semibold">{t("basic.options")}</legend>
            <div className="space-y-2 md:col-span-2">
              <CheckboxField field={f.crossChain}>{t("basic.crossChain")}</CheckboxField>
              <CheckboxField field={f.isPublic}>{t("basic.isPublic")}</CheckboxField>
              {freeEditable ? (
                <CheckboxField field={f.freeService}>{t("basic.freeService")}</CheckboxField>
              ) : (
                <p className="text-sm text-slate-600">
                  {t("basic.freeFixed", { value: t(b?.freeService ? "basic.yes" : "basic.no") })}
                </p>
              )}
            </div>
            {/* Without JavaScript the protocol fields are always shown; with it, only for a cross-chain service. */}
            <div
              className={`grid gap-4 md:col-span-2 md:grid-cols-2 ${form.value === undefined || crossOn ? "" : "hidden"}`}
            >
              <SelectField
                field={f.crossProtocol}
                label={t("basic.crossProtocol")}
                options={opts(CROSS_PROTOCOLS, "protocols")}
                placeholder={t("basic.choose")}
              />
              <TextField field={f.crossAppCode} label={t("basic.crossAppCode")} hint={t("basic.crossAppCodeHint")} />
            </div>
          </fieldset>
          <UploadProgress upload={upload} />
          <StepNav backTo={null}>
            <SubmitButton intent="saveBasic" className="btn-primary" busy={upload.busy}>
              {t(appState === "mod" ? "actions.save" : "actions.saveContinue")}
            </SubmitButton>
          </StepNav>
        </Form>
      </FormProvider>
      {attachmentsSlot}
    </div>
  );
}

export function AttachmentsSection({
  view,
  action,
  actionData,
  deleteHref,
  editable,
}: {
  view: Draft | null;
  action: string;
  actionData?: ActionData;
  deleteHref: DeleteHref;
  editable: boolean;
}) {
  const { t } = useTranslation("wizard");
  const upload = useUpload();
  const deleteLink = useDeleteLink(deleteHref);
  const [form, fields] = useStepForm(attachmentFormSchema, {
    id: "attachment",
    intent: "addAttachment",
    actionData,
    onSubmit: upload.onSubmit,
  });
  const f = fields as unknown as Fields;
  return (
    <section className="card space-y-4" aria-labelledby="attachments-title">
      <h2 id="attachments-title" className="text-base font-semibold">
        {t("attachments.title")}
      </h2>
      {!view ? (
        <p className="text-sm text-slate-500">{t("attachments.afterSave")}</p>
      ) : (
        <>
          <ItemTable
            caption={t("attachments.title")}
            empty={t("attachments.empty")}
            head={[t("attachments.name"), t("attachments.fileName"), t("attachments.size")]}
            rows={view.attachments.map((a) => ({
              key: a.attachmentId,
              cells: [a.name, a.fileName, formatSize(a.size)],
              ...(editable ? deleteLink("attachment", a.attachmentId, a.name) : {}),
            }))}
          />
          {editable ? (
            <FormProvider context={form.context}>
              <Form
                method="post"
                action={action}
                encType="multipart/form-data"
                {...getFormProps(form)}
                className="grid gap-4 md:grid-cols-3"
              >
                <div className="md:col-span-3">
                  <FormErrors id={form.errorId} errors={form.errors} />
                </div>
                <TextField field={f.attachmentName} label={t("attachments.name")} />
                <FileField
                  name="attachmentFile"
                  label={t("attachments.file")}
                  hint={t("attachments.hint")}
                  accept={ATTACHMENT_TYPES.map((x) => `.${x}`).join(",")}
                  errors={f.attachmentFile?.errors}
                />
                <div className="self-end">
                  <SubmitButton intent="addAttachment" className="btn-secondary" busy={upload.busy}>
                    {t("actions.addAttachment")}
                  </SubmitButton>
                </div>
                <div className="md:col-span-3">
                  <UploadProgress upload={upload} />
                </div>
              </Form>
            </FormProvider>
          ) : null}
        </>
      )}
    </section>
  );
}

/* ----------------------------------------- 2. packages ----------------------------------------- */

export function PackagesStep({
  view,
  deleteHref,
  fabricConnected,
  ...step
}: ListStepProps & { fabricConnected: boolean }) {
  const { t } = useTranslation("wizard");
  const upload = useUpload();
  const deleteLink = useDeleteLink(deleteHref);
  // Only languages that run for the framework are offered, one that runs first (docs/decisions/052).
  const languages = languagesFor(view.basic.framework, fabricConnected);
  const [form, fields] = useStepForm(packageFormSchema, {
    id: "package",
    intent: "addPackage",
    actionData: step.actionData,
    defaultValue: { language: defaultLanguageFor(view.basic.framework, fabricConnected) },
    onSubmit: upload.onSubmit,
  });
  const f = fields as unknown as Fields;
  const chosen = languages.find((l) => l === form.value?.language) ?? languages[0];
  return (
    <ListStep
      {...step}
      list="packages"
      form={form}
      intent="addPackage"
      upload={upload}
      head={[
        t("packages.name"),
        t("packages.version"),
        t("packages.language"),
        t("packages.initParams"),
        t("packages.mainPath"),
        t("packages.file"),
      ]}
      rows={view.packages.map((p) => ({
        key: p.packageId,
        cells: [
          p.name,
          p.version,
          t(`languages.${p.language}`),
          p.initParams,
          p.mainPath,
          `${p.fileName} (${formatSize(p.size)})`,
        ],
        ...deleteLink("package", p.packageId, p.name),
      }))}
    >
      <TextField field={f.name} label={t("packages.name")} hint={t("packages.nameHint")} />
      <TextField field={f.version} label={t("packages.version")} hint={t("basic.versionHint")} />
      <div className="md:col-span-3">
        <LanguageSupport fabricConnected={fabricConnected} />
        {view.basic.framework === "fabric" ? (
          <p className="mt-2 text-sm text-slate-700" data-testid="one-chaincode">
            {t("packages.oneChaincode")}
          </p>
        ) : null}
      </div>
      <SelectField
        field={f.language}
        label={t("packages.language")}
        options={languages.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
      />
      <TextField field={f.initParams} label={t("packages.initParams")} hint={t("packages.initParamsHint")} />
      <TextField
        field={f.mainPath}
        label={t("packages.mainPath")}
        hint={chosen ? t("packages.mainPathHint", { path: MAIN_PATH_EXAMPLES[chosen] }) : undefined}
      />
      <FileField
        name="file"
        label={t("packages.file")}
        hint={t("packages.fileHint")}
        accept=".zip"
        errors={f.file?.errors}
      />
    </ListStep>
  );
}

/* ---------------------------------------- 3. functions ----------------------------------------- */

export function FunctionsStep({ view, deleteHref, ...step }: ListStepProps) {
  const { t } = useTranslation("wizard");
  const deleteLink = useDeleteLink(deleteHref);
  const [form, fields] = useStepForm(functionFormSchema, {
    id: "function",
    intent: "addFunction",
    actionData: step.actionData,
    defaultValue: {
      parentId: "top",
      funcType: "1",
      packageId: view.packages[0] ? String(view.packages[0].packageId) : undefined,
    },
  });
  const f = fields as unknown as Fields;
  const packageName = (id: number) => view.packages.find((p) => p.packageId === id)?.name ?? "";
  const functionName = (id: number | null) =>
    id ? (view.functions.find((x) => x.functionId === id)?.name ?? "") : t("functions.top");
  return (
    <ListStep
      {...step}
      list="functions"
      form={form}
      intent="addFunction"
      head={[
        t("functions.name"),
        t("functions.package"),
        t("functions.funcType"),
        t("functions.func"),
        t("functions.parent"),
        t("functions.crossChainAllowed"),
      ]}
      rows={view.functions.map((x) => ({
        key: x.functionId,
        cells: [
          x.name,
          packageName(x.packageId),
          t(`funcTypes.${x.funcType}`),
          <code key="f">{x.func}</code>,
          functionName(x.parentId),
          t(x.crossChainAllowed ? "basic.yes" : "basic.no"),
        ],
        ...deleteLink("function", x.functionId, x.name),
      }))}
    >
      <TextField field={f.name} label={t("functions.name")} />
      <SelectField
        field={f.packageId}
        label={t("functions.package")}
        options={view.packages.map((p) => ({ value: String(p.packageId), label: p.name }))}
      />
      <SelectField
        field={f.funcType}
        label={t("functions.funcType")}
        options={FUNC_TYPES.map((v) => ({ value: v, label: t(`funcTypes.${v}`) }))}
      />
      <TextField field={f.func} label={t("functions.func")} hint={t("functions.funcHint")} />
      <SelectField
        field={f.parentId}
        label={t("functions.parent")}
        options={[
          { value: "top", label: t("functions.top") },
          ...view.functions.map((x) => ({ value: String(x.functionId), label: x.name })),
        ]}
      />
      <div className="self-end">
        <CheckboxField field={f.crossChainAllowed}>{t("functions.crossChainAllowed")}</CheckboxField>
      </div>
      <TextAreaField field={f.inputFormat} label={t("functions.inputFormat")} rows={2} />
      <TextAreaField field={f.outputFormat} label={t("functions.outputFormat")} rows={2} />
    </ListStep>
  );
}

/* ------------------------------------------ 4. roles ------------------------------------------- */

export function RolesStep({ view, deleteHref, ...step }: ListStepProps) {
  const { t } = useTranslation("wizard");
  const deleteLink = useDeleteLink(deleteHref);
  const [form, fields] = useStepForm(roleFormSchema, { id: "role", intent: "addRole", actionData: step.actionData });
  const f = fields as unknown as Fields;
  const chosen = ([] as unknown[]).concat(f.functionIds.initialValue ?? []).map(String);
  const functionName = (id: number) => view.functions.find((x) => x.functionId === id)?.name ?? "";
  return (
    <ListStep
      {...step}
      list="roles"
      form={form}
      intent="addRole"
      head={[t("roles.name"), t("roles.description"), t("roles.functions")]}
      rows={view.roles.map((r) => ({
        key: r.roleId,
        cells: [r.name, r.description, r.functionIds.map(functionName).join(", ")],
        ...deleteLink("role", r.roleId, r.name),
      }))}
    >
      <TextField field={f.name} label={t("roles.name")} />
      <TextField field={f.description} label={t("roles.description")} />
      <fieldset className="md:col-span-2" aria-describedby={f.functionIds.errorId}>
        <legend className="label">{t("roles.functions")}</legend>
        {view.functions.length === 0 ? <p className="text-sm text-slate-500">{t("roles.needFunctions")}</p> : null}
        <div className="flex flex-wrap gap-4">
          {view.functions.map((x) => (
            <label key={`${form.key}-${x.functionId}`} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name={f.functionIds.name}
                value={String(x.functionId)}
                defaultChecked={chosen.includes(String(x.functionId))}
                className="h-4 w-4"
              />
              {x.name} (<code>{x.func}</code>)
            </label>
          ))}
        </div>
        <ErrorList id={f.functionIds.errorId} errors={f.functionIds.errors} />
      </fieldset>
    </ListStep>
  );
}

/* --------------------------------------- 6. certificate ---------------------------------------- */

export function CertificateStep({ view, action, actionData, backTo }: StepProps) {
  const { t } = useTranslation("wizard");
  const [form, fields] = useStepForm(certificateFormSchema, {
    id: "certificate",
    intent: "saveCertificate",
    actionData,
    defaultValue: { certificateMode: view.certificateMode ? String(view.certificateMode) : undefined },
  });
  const field = fields.certificateMode;
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="card space-y-4">
      <FormErrors id={form.errorId} errors={form.errors} />
      <fieldset aria-describedby={field.errorId}>
        <legend className="label">{t("certificate.mode")}</legend>
        <p className="mb-2 text-sm text-slate-600">{t("certificate.intro")}</p>
        <div className="space-y-2">
          {CERTIFICATE_MODES.map((m) => (
            <label key={`${form.key}-${m}`} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name={field.name}
                value={m}
                defaultChecked={field.initialValue === m}
                className="mt-0.5 h-4 w-4"
                aria-describedby={`certificate-mode-${m}-hint`}
              />
              <span>
                <span className="font-medium">{t(`certificate.modes.${m}`)}</span>
                <span
                  id={`certificate-mode-${m}-hint`}
                  className="block text-slate-600"
                  data-testid="certificate-mode-hint"
                >
                  {t(`certificate.modeHints.${m}`)}
                </span>
              </span>
            </label>
          ))}
        </div>
        <ErrorList id={field.errorId} errors={field.errors} />
      </fieldset>
      <StepNav backTo={backTo}>
        <SubmitButton intent="saveCertificate" className="btn-primary">
          {t("actions.saveContinue")}
        </SubmitButton>
      </StepNav>
    </Form>
  );
}

/* ------------------------------------------ 7. cost -------------------------------------------- */

export function CostTable({ view, language }: { view: Draft; language: Language }) {
  const { t } = useTranslation("wizard");
  const usd = (c: number) => formatUsd(c, language);
  const { cost } = view;
  if (cost.lines.length === 0) return <p className="text-sm text-slate-500">{t("cost.empty")}</p>;
  return (
    <Table
      label={t("cost.intro")}
      caption={t("cost.cycle", { cycle: t(`cycles.${cost.paymentCycle}`) })}
      testId="cost-table"
      columns={[
        { header: t("cost.node"), cell: (l) => (language === "zh-CN" ? l.nameZh : l.name) },
        { header: t("cost.tps"), cell: (l) => l.tps, numeric: true },
        { header: t("cost.capacity"), cell: (l) => `${l.capacityGb} GB`, numeric: true },
        { header: t("cost.peers"), cell: (l) => l.peers, numeric: true },
        { header: t("cost.tpsCost"), cell: (l) => usd(l.tpsCents), numeric: true },
        { header: t("cost.capacityCost"), cell: (l) => usd(l.capacityCents), numeric: true },
        { header: t("cost.total"), cell: (l) => usd(l.totalCents), numeric: true, className: "font-medium" },
      ]}
      rows={cost.lines}
      rowKey={(l) => l.cityNodeId}
      footer={
        <tr className="bg-slate-50">
          <th scope="row" colSpan={6} className="px-3 py-2 text-right">
            {t("cost.grandTotal")}
          </th>
          <td className="px-3 py-2 text-right font-semibold tabular-nums" data-testid="cost-total">
            {usd(cost.totalCents)}
          </td>
        </tr>
      }
    />
  );
}

export function CostStep({ view, language, action, actionData, backTo }: StepProps & { language: Language }) {
  const { t } = useTranslation("wizard");
  const [form, fields] = useStepForm(submitFormSchema, {
    id: "submit",
    intent: "submit",
    actionData,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
  });
  const f = fields as unknown as Fields;
  return (
    <FormProvider context={form.context}>
      <Form method="post" action={action} {...getFormProps(form)} className="card space-y-4">
        <p className="text-sm text-slate-600">{t("cost.intro")}</p>
        <FormErrors id={form.errorId} errors={form.errors} />
        <CostTable view={view} language={language} />
        {view.nodes.length === 1 ? (
          <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-800">
            {t("nodes.risk")}
          </p>
        ) : null}
        {view.cost.free ? <p className="text-sm text-emerald-700">{t("cost.free")}</p> : null}
        <CheckboxField field={f.agreement}>
          {t("cost.agreement")} (
          <Link to="/g/main/PrivateAgreement" target="_blank" className="link">
            {t("cost.agreementLink")}
          </Link>
          )
        </CheckboxField>
        <StepNav backTo={backTo}>
          <SubmitButton intent="submit" className="btn-primary">
            {t("actions.submit")}
          </SubmitButton>
        </StepNav>
      </Form>
    </FormProvider>
  );
}
