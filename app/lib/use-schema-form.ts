import { useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type * as z from "zod";

// Its own module rather than components/forms.tsx: pages that only use a SubmitButton do not load Zod.

type FormSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

/** What a form may set beside its schema: its id, first values, submit handler and when it validates. */
export type SchemaFormOptions<Schema extends FormSchema> = Partial<
  Pick<
    Parameters<typeof useForm<z.input<Schema>, z.output<Schema>>>[0],
    "id" | "defaultValue" | "onSubmit" | "shouldValidate" | "shouldRevalidate"
  >
>;

/**
 * A Conform form validated by its Zod schema (house habit 1: the action parses the same schema): in the
 * browser from its first submission, then at every input; `lastResult` is the action's reply to this form.
 */
export function useSchemaForm<Schema extends FormSchema>(
  schema: Schema,
  lastResult: SubmissionResult<string[]> | null | undefined,
  options: SchemaFormOptions<Schema> = {},
) {
  const constraint = requiredOnly(schema);
  return useForm<z.input<Schema>, z.output<Schema>>({
    lastResult,
    constraint,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    ...options,
  });
}

/**
 * Which fields the schema requires, and nothing else of its constraints: the fields mark themselves
 * (components/forms.tsx) and carry `required` for assistive technology, while lengths and patterns stay the
 * server's and Conform's to explain (the forms are `noValidate`, so the browser never blocks a submission).
 */
function requiredOnly(schema: FormSchema): Record<string, { required?: boolean }> | undefined {
  if (requiredFields.has(schema)) return requiredFields.get(schema);
  let required: Record<string, { required?: boolean }> | undefined;
  try {
    required = Object.fromEntries(
      Object.entries(getZodConstraint(schema)).map(([name, c]) => [name, { required: c.required }]),
    );
  } catch {
    required = undefined;
  }
  requiredFields.set(schema, required);
  return required;
}

/**
 * Each schema's required fields, worked out once (issue 34): the schemas are the modules' constants, and walking
 * one on every render was a measurable part of the wizard's server time (a render's `useMemo` lasts one request).
 */
const requiredFields = new WeakMap<FormSchema, Record<string, { required?: boolean }> | undefined>();
