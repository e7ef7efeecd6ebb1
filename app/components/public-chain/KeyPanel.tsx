import { useTranslation } from "react-i18next";
import { CopyField } from "#app/components/CopyField.tsx";

/**
 * A project key shown in full: selectable text (what a browser without JavaScript has) and, with JavaScript,
 * a Copy button that writes it to the clipboard and says so (app/components/CopyField.tsx).
 */
export function CopyableText({ value, label, testId }: { value: string; label: string; testId: string }) {
  const { t } = useTranslation("publicChain");
  return (
    <CopyField
      as="code"
      value={value}
      label={label}
      testId={testId}
      texts={{ copy: t("key.copy"), copied: t("key.copied"), failed: t("key.copyFailed") }}
    />
  );
}
