import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

type Texts = { copy: string; copied: string; failed: string };

/**
 * A value people paste into their own tools (an endpoint, a key), as a progressive enhancement: without
 * JavaScript it is selectable text (a readonly input, or a code element for `as="code"`); with JavaScript a Copy
 * button writes it to the clipboard (`navigator.clipboard`) and says "Copied".
 */
export function CopyField({
  value,
  label,
  testId,
  as = "input",
  texts,
}: {
  value: string;
  label: string;
  testId: string;
  as?: "input" | "code";
  texts?: Texts;
}) {
  const { t } = useTranslation("common");
  const words = texts ?? { copy: t("actions.copy"), copied: t("actions.copied"), failed: t("actions.copyFailed") };
  const [hydrated, setHydrated] = useState(false);
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  useEffect(() => setHydrated(true), []);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      setCopied("no");
    }
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      {as === "code" ? (
        <code
          className="select-all break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm text-slate-900"
          data-testid={testId}
          aria-label={label}
        >
          {value}
        </code>
      ) : (
        <input
          type="text"
          readOnly
          value={value}
          aria-label={label}
          data-testid={testId}
          size={Math.min(Math.max(value.length, 20), 72)}
          className="min-w-0 max-w-full flex-1 rounded border border-slate-300 bg-slate-50 px-2 py-1 font-mono text-sm text-slate-900"
          onFocus={(e) => e.currentTarget.select()}
        />
      )}
      {hydrated ? (
        <button
          type="button"
          className="btn-secondary !py-1"
          onClick={() => void copy()}
          data-testid={`${testId}-copy`}
          aria-label={`${words.copy}: ${label}`}
        >
          {words.copy}
        </button>
      ) : null}
      <span role="status" className="text-xs text-slate-600">
        {copied === "yes" ? words.copied : copied === "no" ? words.failed : ""}
      </span>
    </div>
  );
}
