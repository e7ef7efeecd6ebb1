import { Link } from "@remix-run/react";
import { lazy, Suspense, useState, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import type { Leave } from "./ProfileDialogs.tsx";

type Props = { userName: string; realName: string; userType: 1 | 2; open: boolean; closeHref: string };

/** The panel and the log-out question as dialogs: a chunk of its own, fetched when the pointer or focus reaches the link. */
const loadDialogs = () => import("./ProfileDialogs.tsx");
const ProfileDialogs = lazy(loadDialogs);

function PanelBody({
  userName,
  realName,
  userType,
  onLeave,
}: Omit<Props, "open" | "closeHref"> & { onLeave?: (intent: Leave) => void }) {
  const { t } = useTranslation();
  const leave = (intent: Leave) => (event: MouseEvent) => {
    if (onLeave) {
      event.preventDefault();
      onLeave(intent);
    }
  };
  return (
    <div className="space-y-6">
      <div>
        <p className="text-lg font-semibold text-slate-900">{realName}</p>
        <p className="text-sm text-slate-500">
          {userName} · {t(`userType.${userType}`)}
        </p>
      </div>
      <ul className="space-y-2">
        <li>
          <Link to="/g/home/userCenter/ChangePassword" className="btn-secondary w-full">
            {t("profile.changePassword")}
          </Link>
        </li>
        <li>
          <Link to="/g/home/logout" className="btn-danger w-full" onClick={leave("logout")}>
            {t("profile.logout")}
          </Link>
        </li>
        <li>
          <Link
            to="/g/home/logout?scope=everywhere"
            className="btn-secondary w-full"
            onClick={leave("logoutEverywhere")}
          >
            {t("profile.logoutEverywhere")}
          </Link>
          <p className="mt-1 text-xs text-slate-500">{t("profile.logoutEverywhereHint")}</p>
        </li>
      </ul>
    </div>
  );
}

/**
 * SPEC §2 profile side panel with Change Password and Log Out; Log Out asks "Do you want to exit the
 * system?". "Log out everywhere" ends every session of the account, this one too (docs/decisions/021), after
 * its own question. With JavaScript these are Headless UI dialogs (app/components/ProfileDialogs.tsx); without it, the panel is opened by a link
 * (?panel=profile) and both lead to a confirmation page (/g/home/logout).
 */
export function ProfilePanel(props: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState<Leave | null>(null);
  return (
    <>
      <Link
        to="?panel=profile"
        className="rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100"
        aria-haspopup="dialog"
        onPointerEnter={() => void loadDialogs()}
        onFocus={() => void loadDialogs()}
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        {t("topbar.profile")}
      </Link>

      {/* Without JavaScript: the panel rendered by the server when the link was followed. */}
      {props.open && !open ? (
        <aside
          aria-labelledby="profile-title"
          className="fixed inset-y-0 right-0 z-40 w-80 border-l border-slate-200 bg-white p-6 shadow-xl"
        >
          <div className="mb-6 flex items-center justify-between">
            <h2 id="profile-title" className="font-semibold">
              {t("topbar.profile")}
            </h2>
            <Link to={props.closeHref} className="text-sm text-slate-500 hover:text-slate-800">
              {t("actions.close")}
            </Link>
          </div>
          <PanelBody {...props} />
        </aside>
      ) : null}

      {open || confirming !== null ? (
        <Suspense fallback={null}>
          <ProfileDialogs
            open={open}
            onClose={() => setOpen(false)}
            confirming={confirming}
            onCancel={() => setConfirming(null)}
            body={
              <PanelBody
                {...props}
                onLeave={(intent) => {
                  setOpen(false);
                  setConfirming(intent);
                }}
              />
            }
          />
        </Suspense>
      ) : null}
    </>
  );
}
