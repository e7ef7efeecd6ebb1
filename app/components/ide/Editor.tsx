import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { LineError } from "./codemirror.tsx";

const CodeEditor = lazy(() =>
  import("./codemirror.tsx").then((m) => ({
    default: (m.default as unknown as { default?: typeof m.default }).default ?? m.default,
  })),
);

/**
 * The editor (docs/decisions/044): a plain textarea that the form posts. With JavaScript, after hydration,
 * CodeMirror (a separate chunk) replaces it on screen and writes every change back into it, so the same
 * form saves, compiles and keeps what was typed either way. The last compilation's errors in the file are
 * marked at their lines in CodeMirror, and named by line number above the editor (all there is without JavaScript).
 */
export function SolidityEditor({
  name,
  defaultValue,
  label,
  id,
  describedBy,
  errors = [],
}: {
  name: string;
  defaultValue: string;
  label: string;
  id: string;
  describedBy?: string;
  errors?: LineError[];
}) {
  const { t } = useTranslation("ide");
  const [enhanced, setEnhanced] = useState(false);
  const [value, setValue] = useState(defaultValue);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => setEnhanced(true), []);
  useEffect(() => setValue(defaultValue), [defaultValue]);
  const change = (next: string) => {
    setValue(next);
    if (area.current) area.current.value = next;
  };
  const lines = [...new Set(errors.map((e) => e.line))].sort((a, b) => a - b);
  return (
    <div>
      {lines.length ? (
        <p id={`${id}-error-lines`} className="mb-2 text-sm font-medium text-red-800" data-testid="error-lines">
          {t("portal.errorLines", { count: lines.length, lines: lines.join(", ") })}
        </p>
      ) : null}
      <label htmlFor={id} className={enhanced ? "sr-only" : "label"}>
        {label}
      </label>
      <textarea
        ref={area}
        id={id}
        name={name}
        defaultValue={defaultValue}
        key={defaultValue}
        aria-describedby={[lines.length ? `${id}-error-lines` : "", describedBy ?? ""].join(" ").trim() || undefined}
        spellCheck={false}
        rows={24}
        className={enhanced ? "sr-only" : "input font-mono text-sm"}
        tabIndex={enhanced ? -1 : undefined}
        aria-hidden={enhanced ? true : undefined}
        data-testid="editor-textarea"
      />
      {enhanced ? (
        <Suspense fallback={<pre className="input min-h-96 whitespace-pre-wrap font-mono text-sm">{value}</pre>}>
          <CodeEditor value={value} onChange={change} label={label} errors={errors} />
        </Suspense>
      ) : null}
    </div>
  );
}
