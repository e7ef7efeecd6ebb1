import { FormProvider, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ideNewFileFormSchema, ideRenameFileFormSchema, type IdeDiagnostic, type IdeFile } from "#contract/ide.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { RadioGroupField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

type Last = { target: string; result: SubmissionResult<string[]> | null } | undefined;

/** The workspace's files and folders, indented by depth; each file opens in the editor, with its error count. */
export function FileTree({
  files,
  current,
  hrefOf,
  diagnostics,
  action,
  last,
}: {
  files: IdeFile[];
  current: number | null;
  hrefOf: (fileId: number) => string;
  diagnostics: IdeDiagnostic[];
  action: string;
  last: Last;
}) {
  const { t } = useTranslation("ide");
  return (
    <nav aria-label={t("portal.files")} className="space-y-3">
      <ul className="space-y-1 text-sm" data-testid="file-tree">
        {files.map((f) => {
          const depth = f.path.split("/").length - 1;
          const name = f.path.split("/").pop();
          const errors = diagnostics.filter((d) => d.file === f.path && d.severity === "error").length;
          return (
            <li key={f.fileId} style={{ paddingLeft: `${depth * 0.75}rem` }} className="group">
              <div className="flex items-center gap-2">
                {f.folder ? (
                  <span className="font-medium text-slate-700">📁 {name}/</span>
                ) : (
                  <Link
                    to={hrefOf(f.fileId)}
                    className={`link ${f.fileId === current ? "font-semibold" : ""}`}
                    aria-current={f.fileId === current ? "page" : undefined}
                    data-testid="file-link"
                  >
                    {name}
                  </Link>
                )}
                {errors ? (
                  <span className="rounded bg-red-100 px-1 text-xs text-red-800">
                    {t("portal.errorCount", { count: errors })}
                  </span>
                ) : null}
              </div>
              <FileActions file={f} action={action} last={last} />
            </li>
          );
        })}
      </ul>
      <NewFile action={action} last={last} />
    </nav>
  );
}

function FileActions({ file, action, last }: { file: IdeFile; action: string; last: Last }) {
  const { t } = useTranslation("ide");
  const mine = last?.target === `rename-${file.fileId}`;
  const [form, fields] = useSchemaForm(ideRenameFileFormSchema, mine ? last.result : null, {
    id: `rename-file-${file.fileId}`,
    defaultValue: { fileId: String(file.fileId), path: file.path },
  });
  return (
    <details open={mine} className="text-xs">
      <summary className="cursor-pointer text-slate-500">{t("portal.fileActions", { path: file.path })}</summary>
      <FormProvider context={form.context}>
        <Form method="post" action={action} id={form.id} onSubmit={form.onSubmit} noValidate className="mt-1 space-y-1">
          <input type="hidden" name="fileId" value={file.fileId} />
          <FormErrors id={form.errorId} errors={form.errors} />
          <TextField field={fields.path} label={t("portal.newPath")} />
          <SubmitButton intent="renameFile" className="btn-secondary text-xs">
            {t("portal.rename")}
          </SubmitButton>
        </Form>
      </FormProvider>
      <Form method="post" action={action} id={`delete-file-${file.fileId}`} className="mt-1">
        <input type="hidden" name="fileId" value={file.fileId} />
        <ConfirmSubmit
          formId={`delete-file-${file.fileId}`}
          name="intent"
          value="deleteFile"
          label={t("portal.delete")}
          title={t("portal.deleteTitle")}
          question={t(file.folder ? "portal.deleteFolderQuestion" : "portal.deleteQuestion", { path: file.path })}
          confirmLabel={t("portal.delete")}
          className="btn-danger text-xs"
        />
      </Form>
    </details>
  );
}

function NewFile({ action, last }: { action: string; last: Last }) {
  const { t } = useTranslation("ide");
  const [form, fields] = useSchemaForm(ideNewFileFormSchema, last?.target === "newFile" ? last.result : null, {
    id: "new-file",
    defaultValue: { kind: "file" },
  });
  return (
    <FormProvider context={form.context}>
      <Form
        method="post"
        action={action}
        id={form.id}
        onSubmit={form.onSubmit}
        noValidate
        className="space-y-2 border-t border-slate-200 pt-3"
      >
        <FormErrors id={form.errorId} errors={form.errors} />
        <TextField field={fields.path} label={t("portal.newFilePath")} hint={t("portal.newFileHint")} />
        <RadioGroupField
          field={fields.kind}
          legend={t("portal.kind")}
          options={[
            { value: "file", label: t("portal.file") },
            { value: "folder", label: t("portal.folder") },
          ]}
        />
        <SubmitButton intent="newFile" className="btn-secondary text-sm">
          {t("portal.create")}
        </SubmitButton>
      </Form>
    </FormProvider>
  );
}

/** The compiler's messages: those of the file shown first, each at its line and column. */
export function Diagnostics({
  diagnostics,
  file,
  compiledAt,
}: {
  diagnostics: IdeDiagnostic[];
  file: string | null;
  compiledAt: string | null;
}) {
  const { t } = useTranslation("ide");
  if (!compiledAt) return <p className="text-sm text-slate-600">{t("portal.notCompiled")}</p>;
  if (!diagnostics.length)
    return (
      <p className="text-sm text-green-800" data-testid="compile-clean">
        {t("portal.noMessages")}
      </p>
    );
  const sorted = [...diagnostics].sort((a, b) => Number(b.file === file) - Number(a.file === file));
  return (
    <ul className="space-y-2 text-sm" data-testid="diagnostics">
      {sorted.map((d, i) => (
        <li
          key={i}
          className={`rounded-md border p-2 ${d.severity === "error" ? "border-red-200 bg-red-50 text-red-900" : "border-amber-200 bg-amber-50 text-amber-900"}`}
          data-testid={`diagnostic-${d.severity}`}
        >
          <p className="font-medium">
            {t(`severity.${d.severity}`)} · {d.file ?? t("portal.noFile")}
            {d.line ? ` · ${t("portal.lineColumn", { line: d.line, column: d.column ?? 1 })}` : ""}
          </p>
          <p className="whitespace-pre-wrap break-words font-mono text-xs">{d.message}</p>
        </li>
      ))}
    </ul>
  );
}
