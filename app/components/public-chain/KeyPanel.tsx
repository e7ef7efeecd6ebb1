import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/**
 * A project key or endpoint shown in full: selectable text (what a browser without JavaScript has) and,
 * with JavaScript, a Copy button that writes it to the clipboard and says so.
 */
export function CopyableText({ value, label, testId }: { value: string; label: string; testId: string }) {
  const { t } = useTranslation("publicChain");
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
      <code
        className="select-all break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm text-slate-900"
        data-testid={testId}
        aria-label={label}
      >
        {value}
      </code>
      {hydrated ? (
        <button type="button" className="btn-secondary !py-1" onClick={copy} data-testid={`${testId}-copy`}>
          {t("key.copy")}
        </button>
      ) : null}
      <span role="status" className="text-xs text-slate-600">
        {copied === "yes" ? t("key.copied") : copied === "no" ? t("key.copyFailed") : ""}
      </span>
    </div>
  );
}
