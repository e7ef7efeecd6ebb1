import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from "@headlessui/react";
import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";

type Props = { userName: string; realName: string; userType: 1 | 2; open: boolean; closeHref: string };

function PanelBody({ userName, realName, userType, onLogout }: Omit<Props, "open" | "closeHref"> & { onLogout?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-6">
      <div>
        <p className="text-lg font-semibold text-slate-900">{realName}</p>
        <p className="text-sm text-slate-500">{userName} · {t(`userType.${userType}`)}</p>
      </div>
      <ul className="space-y-2">
        <li><Link to="/g/home/userCenter/ChangePassword" className="btn-secondary w-full">{t("profile.changePassword")}</Link></li>
        <li>
          <Link
            to="/g/home/logout"
            className="btn-danger w-full"
            onClick={(event) => {
              if (onLogout) {
                event.preventDefault();
                onLogout();
              }
            }}
          >
            {t("profile.logout")}
          </Link>
        </li>
      </ul>
    </div>
  );
}

/**
 * SPEC §2 profile side panel with Change Password and Log Out; Log Out asks "Do you want to exit the
 * system?". With JavaScript both are Headless UI dialogs; without it, the panel is opened by a link
 * (?panel=profile) and Log Out leads to a confirmation page.
 */
export function ProfilePanel(props: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Link
        to="?panel=profile"
        className="rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100"
        aria-haspopup="dialog"
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        {t("topbar.profile")}
      </Link>

      {/* Without JavaScript: the panel rendered by the server when the link was followed. */}
      {props.open && !open ? (
        <aside aria-labelledby="profile-title" className="fixed inset-y-0 right-0 z-40 w-80 border-l border-slate-200 bg-white p-6 shadow-xl">
          <div className="mb-6 flex items-center justify-between">
            <h2 id="profile-title" className="font-semibold">{t("topbar.profile")}</h2>
            <Link to={props.closeHref} className="text-sm text-slate-500 hover:text-slate-800">{t("actions.close")}</Link>
          </div>
          <PanelBody {...props} />
        </aside>
      ) : null}

      <Dialog open={open} onClose={() => setOpen(false)} className="relative z-40">
        <DialogBackdrop className="fixed inset-0 bg-slate-900/30" />
        <DialogPanel className="fixed inset-y-0 right-0 w-80 border-l border-slate-200 bg-white p-6 shadow-xl">
          <div className="mb-6 flex items-center justify-between">
            <DialogTitle className="font-semibold">{t("topbar.profile")}</DialogTitle>
            <button type="button" onClick={() => setOpen(false)} className="text-sm text-slate-500 hover:text-slate-800">{t("actions.close")}</button>
          </div>
          <PanelBody {...props} onLogout={() => { setOpen(false); setConfirming(true); }} />
        </DialogPanel>
      </Dialog>

      <Dialog open={confirming} onClose={() => setConfirming(false)} className="relative z-50" role="alertdialog">
        <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
        <div className="fixed inset-0 flex items-center justify-center p-4">
          <DialogPanel className="card w-full max-w-sm">
            <DialogTitle className="font-semibold">{t("logout.title")}</DialogTitle>
            <p className="mt-2 text-sm text-slate-600">{t("logout.question")}</p>
            <Form method="post" action="/g/home/logout" className="mt-6 flex justify-end gap-2">
              <button type="button" className="btn-secondary" onClick={() => setConfirming(false)}>{t("actions.cancel")}</button>
              <button type="submit" className="btn-danger">{t("logout.confirm")}</button>
            </Form>
          </DialogPanel>
        </div>
      </Dialog>
    </>
  );
}
