import { useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type * as z from "zod";

// Its own module rather than components/forms.tsx: pages that only use a SubmitButton do not load Zod.

type FormSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

/** What a form may set beside its schema: its id, first values, submit handler and when it validates. */
export type SchemaFormOptions<Schema extends FormSchema> = Partial<
  Pick<Parameters<typeof useForm<z.input<Schema>, z.output<Schema>>>[0], "id" | "defaultValue" | "onSubmit" | "shouldValidate" | "shouldRevalidate">
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
  return useForm<z.input<Schema>, z.output<Schema>>({
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    ...options,
  });
}
