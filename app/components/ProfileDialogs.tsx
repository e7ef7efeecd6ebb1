import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from "@headlessui/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

export type Leave = "logout" | "logoutEverywhere";

/**
 * The profile side panel and the log-out question with JavaScript (app/components/ProfilePanel.tsx): Headless UI
 * dialogs, in a chunk of their own so the console's pages do not load them until someone reaches for the panel.
 */
export default function ProfileDialogs({
  open,
  onClose,
  confirming,
  onCancel,
  body,
}: {
  open: boolean;
  onClose: () => void;
  confirming: Leave | null;
  onCancel: () => void;
  body: ReactNode;
}) {
  const { t } = useTranslation();
  const everywhere = confirming === "logoutEverywhere";
  return (
    <>
      <Dialog open={open} onClose={onClose} className="relative z-40" aria-label={t("topbar.profile")}>
        <DialogBackdrop className="fixed inset-0 bg-slate-900/30" />
        <DialogPanel className="fixed inset-y-0 right-0 w-80 border-l border-slate-200 bg-white p-6 shadow-xl">
          <div className="mb-6 flex items-center justify-between">
            <DialogTitle className="font-semibold">{t("topbar.profile")}</DialogTitle>
            <button type="button" onClick={onClose} className="text-sm text-slate-500 hover:text-slate-800">
              {t("actions.close")}
            </button>
          </div>
          {body}
        </DialogPanel>
      </Dialog>

      <Dialog
        open={confirming !== null}
        onClose={onCancel}
        className="relative z-50"
        role="alertdialog"
        aria-label={t(everywhere ? "logout.everywhereTitle" : "logout.title")}
      >
        <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
        <div className="fixed inset-0 flex items-center justify-center p-4">
          <DialogPanel className="card w-full max-w-sm">
            <DialogTitle className="font-semibold">
              {t(everywhere ? "logout.everywhereTitle" : "logout.title")}
            </DialogTitle>
            <p className="mt-2 text-sm text-slate-600">
              {t(everywhere ? "logout.everywhereQuestion" : "logout.question")}
            </p>
            <Form method="post" action="/g/home/logout" className="mt-6 flex justify-end gap-2">
              <button type="button" className="btn-secondary" onClick={onCancel}>
                {t("actions.cancel")}
              </button>
              <button type="submit" name="intent" value={confirming ?? "logout"} className="btn-danger">
                {t(everywhere ? "logout.everywhereConfirm" : "logout.confirm")}
              </button>
            </Form>
          </DialogPanel>
        </div>
      </Dialog>
    </>
  );
}
