import { useId } from "react";
import { useTranslation } from "react-i18next";
import { formatSize } from "#app/lib/format-number.ts";
import type { Upload } from "#app/lib/use-upload.ts";

/**
 * The progress of a form's upload (app/lib/use-upload.ts): a labelled <progress> (role progressbar, its value
 * the percentage), the percentage and bytes as text, and Cancel while bytes are still being sent. Renders
 * nothing until a file is sent, so without JavaScript it never appears.
 */
export function UploadProgress({ upload }: { upload: Upload }) {
  const { t } = useTranslation();
  const labelId = useId();
  const { state } = upload;
  if (state.phase === "idle") return null;
  if (state.phase === "cancelled") {
    return (
      <p role="status" data-testid="upload-cancelled" className="text-sm text-slate-600">
        {t("upload.cancelled")}
      </p>
    );
  }
  if (state.phase === "failed") {
    return (
      <p
        role="alert"
        data-testid="upload-error"
        className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700"
      >
        {t(state.messageKey)}
      </p>
    );
  }
  const percent = state.total > 0 ? Math.min(100, Math.floor((state.loaded * 100) / state.total)) : 0;
  const sending = state.phase === "sending";
  return (
    <div data-testid="upload-progress" className="space-y-2 rounded-md border border-slate-200 bg-slate-50 p-3">
      <div className="flex items-center justify-between gap-3">
        <span id={labelId} className="text-sm font-medium text-slate-700">
          {t("upload.label", { name: state.names })}
        </span>
        {sending ? (
          <button type="button" onClick={upload.cancel} className="btn-secondary">
            {t("upload.cancel")}
          </button>
        ) : null}
      </div>
      <progress aria-labelledby={labelId} max={100} value={percent} className="h-2 w-full accent-brand-600" />
      <p className="text-xs text-slate-600" role={sending ? undefined : "status"}>
        {sending
          ? t("upload.progress", { percent, sent: formatSize(state.loaded), total: formatSize(state.total) })
          : t("upload.processing", { total: formatSize(state.total) })}
      </p>
    </div>
  );
}
