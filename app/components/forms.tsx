import { getInputProps, getSelectProps, getTextareaProps, useField, type FieldMetadata } from "@conform-to/react";
import { useEffect, useRef, useState, type DragEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatSize } from "#app/lib/format-number.ts";
import { ErrorList } from "./form-parts.tsx";

/**
 * A field's label and, when its schema requires it, the marker beside it (outside the label, so the field's
 * accessible name stays its label; the input itself carries `required`).
 */
function FieldLabel({ htmlFor, required, children }: { htmlFor: string; required?: boolean; children: ReactNode }) {
  const { t } = useTranslation("forms");
  return (
    <div className="flex items-baseline gap-1">
      <label htmlFor={htmlFor} className="label">
        {children}
      </label>
      {required ? (
        <span
          aria-hidden="true"
          title={t("requiredMark")}
          className="text-sm font-semibold text-red-700"
          data-testid="required-mark"
        >
          *
        </span>
      ) : null}
    </div>
  );
}

type InputType = "text" | "email" | "password" | "tel" | "url" | "number" | "date" | "datetime-local";

export function TextField({
  field,
  label,
  type = "text",
  hint,
  autoComplete,
  className = "",
}: {
  field: FieldMetadata<string | undefined>;
  label: string;
  type?: InputType;
  hint?: ReactNode;
  autoComplete?: string;
  className?: string;
}) {
  // useField subscribes this component to its own field, so its errors show as soon as they change
  // (the form must be wrapped in <FormProvider>).
  const [meta] = useField<string | undefined>(field.name, { formId: field.formId });
  const props = getInputProps(meta, { type, ariaDescribedBy: hint ? `${meta.id}-hint` : undefined });
  return (
    <div className={className}>
      <FieldLabel htmlFor={meta.id} required={meta.required}>
        {label}
      </FieldLabel>
      <input {...props} key={props.key} autoComplete={autoComplete} className="input" />
      {hint ? (
        <p id={`${meta.id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export function CheckboxField({ field, children }: { field: FieldMetadata<string | undefined>; children: ReactNode }) {
  const [meta] = useField<string | undefined>(field.name, { formId: field.formId });
  const props = getInputProps(meta, { type: "checkbox" });
  return (
    <div>
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input {...props} key={props.key} className="mt-0.5 h-4 w-4 rounded border-slate-300 text-brand-600" />
        <span>{children}</span>
      </label>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/** A multi-line text field, subscribed to its own field like TextField. */
export function TextAreaField({
  field,
  label,
  hint,
  rows = 4,
  className = "",
}: {
  field: FieldMetadata<string | undefined>;
  label: string;
  hint?: ReactNode;
  rows?: number;
  className?: string;
}) {
  const [meta] = useField<string | undefined>(field.name, { formId: field.formId });
  const props = getTextareaProps(meta, { ariaDescribedBy: hint ? `${meta.id}-hint` : undefined });
  return (
    <div className={className}>
      <FieldLabel htmlFor={meta.id} required={meta.required}>
        {label}
      </FieldLabel>
      <textarea {...props} key={props.key} rows={rows} className="input" />
      {hint ? (
        <p id={`${meta.id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/** A native select (works without JavaScript); `options` are value → label. */
export function SelectField({
  field,
  label,
  options,
  placeholder,
  className = "",
}: {
  /** A number field (an id chosen from a list) is posted as its digits and parsed by the schema. */
  field: FieldMetadata<string | number | undefined>;
  label: string;
  options: { value: string; label: string }[];
  placeholder?: string;
  className?: string;
}) {
  const [meta] = useField<string | number | undefined>(field.name, { formId: field.formId });
  const props = getSelectProps(meta);
  return (
    <div className={className}>
      <FieldLabel htmlFor={meta.id} required={meta.required}>
        {label}
      </FieldLabel>
      <select {...props} key={props.key} className="input">
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/** One choice of several, as radio buttons (works without JavaScript). */
export function RadioGroupField({
  field,
  legend,
  options,
}: {
  field: FieldMetadata<string | undefined>;
  legend: string;
  options: { value: string; label: ReactNode; disabled?: boolean }[];
}) {
  const [meta] = useField<string | undefined>(field.name, { formId: field.formId });
  return (
    <fieldset aria-describedby={meta.errors ? meta.errorId : undefined}>
      <legend className="label">
        {legend}
        {meta.required ? (
          <span aria-hidden="true" className="ml-1 text-sm font-semibold text-red-700" data-testid="required-mark">
            *
          </span>
        ) : null}
      </legend>
      <div className="space-y-2">
        {options.map((o) => {
          const props = getInputProps(meta, { type: "radio", value: o.value });
          return (
            <label
              key={o.value}
              className={`flex items-start gap-2 text-sm ${o.disabled ? "text-slate-400" : "text-slate-700"}`}
            >
              <input
                {...props}
                key={`${props.key}-${o.value}`}
                id={`${meta.id}-${o.value}`}
                disabled={o.disabled}
                className="mt-0.5 h-4 w-4 border-slate-300 text-brand-600"
              />
              <span>{o.label}</span>
            </label>
          );
        })}
      </div>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}

/**
 * A file input with its label, hint and errors (files are checked on the server; they cannot be kept after a
 * failed POST). Without JavaScript it is the native input. With JavaScript the same input sits in a drop area:
 * a file dropped on it or chosen by a click becomes the input's file (the form posts it as before), and its
 * name and size are shown; keyboard users reach the input itself, whose focus rings the area.
 */
export function FileField({
  name,
  label,
  hint,
  accept,
  errors,
}: {
  name: string;
  label: string;
  hint?: string;
  accept?: string;
  errors?: string[];
}) {
  const { t } = useTranslation("forms");
  const [hydrated, setHydrated] = useState(false);
  const [chosen, setChosen] = useState<{ name: string; size: number } | null>(null);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    setHydrated(true);
    // A file chosen before hydration: the drop zone names it too.
    const file = input.current?.files?.[0];
    if (file) setChosen({ name: file.name, size: file.size });
  }, []);
  const id = `file-${name}`;
  const field = (
    <input
      ref={input}
      id={id}
      name={name}
      type="file"
      accept={accept}
      aria-invalid={errors?.length ? true : undefined}
      aria-describedby={hint ? `${id}-hint` : undefined}
      onChange={(e) => {
        const file = e.currentTarget.files?.[0];
        setChosen(file ? { name: file.name, size: file.size } : null);
      }}
      className={hydrated ? "sr-only" : "block w-full text-sm"}
    />
  );
  const drop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    const files = e.dataTransfer.files;
    if (!input.current || files.length === 0) return;
    const one = new DataTransfer();
    one.items.add(files[0]);
    input.current.files = one.files;
    input.current.dispatchEvent(new Event("change", { bubbles: true }));
  };
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      {/* One element tree before and after hydration: the input keeps its place, so a file chosen while the page
          was still loading its JavaScript is not lost when the drop zone appears around it. */}
      <div
        data-testid={hydrated ? "file-drop" : undefined}
        onClick={(e) => {
          if (hydrated && e.target !== input.current) input.current?.click();
        }}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        className={
          hydrated
            ? `flex cursor-pointer flex-col items-center gap-1 rounded-md border-2 border-dashed px-4 py-5 text-center text-sm focus-within:ring-2 focus-within:ring-brand-500 ${over ? "border-brand-500 bg-brand-50" : errors?.length ? "border-red-300 bg-red-50" : "border-slate-300 bg-white hover:border-brand-400"}`
            : undefined
        }
      >
        {field}
        {hydrated ? (
          <>
            <span aria-hidden="true" className="font-medium text-slate-800" data-testid="file-drop-chosen">
              {chosen
                ? t("fileDrop.chosen", { name: chosen.name, size: formatSize(chosen.size) })
                : t("fileDrop.prompt")}
            </span>
            <span aria-hidden="true" className="text-xs text-slate-600">
              {chosen ? t("fileDrop.replace") : t("fileDrop.click")}
            </span>
          </>
        ) : null}
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <ErrorList errors={errors} />
    </div>
  );
}
