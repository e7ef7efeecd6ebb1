import { useTranslation } from "react-i18next";

type Flash = { kind: "success" | "error" | "info"; key: string; params?: Record<string, string> };

const STYLES: Record<Flash["kind"], string> = {
  success: "border-green-200 bg-green-50 text-green-800",
  error: "border-red-200 bg-red-50 text-red-800",
  info: "border-brand-100 bg-brand-50 text-brand-900",
};

/** A flash message from the server (house habit 5), translated where it is shown. */
export function FlashBanner({ flash }: { flash: Flash }) {
  const { t } = useTranslation();
  return (
    <div
      role={flash.kind === "error" ? "alert" : "status"}
      data-testid="flash"
      className={`border-b px-4 py-2 text-center text-sm ${STYLES[flash.kind]}`}
    >
      {t(flash.key, flash.params)}
    </div>
  );
}
