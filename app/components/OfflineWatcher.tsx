import { useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

export const SAVED_LOCATION_KEY = "bsn.offline.savedLocation";

/**
 * SPEC §2 "Going offline shows a message and returns to home. Coming back restores the saved address."
 * With JavaScript only: the address is saved, a message covers the page with a way home, and when the
 * connection returns the saved address is opened again. See docs/decisions/001.
 */
export function OfflineWatcher({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [offline, setOffline] = useState(false);
  const here = location.pathname + location.search;

  useEffect(() => {
    function goneOffline() {
      sessionStorage.setItem(SAVED_LOCATION_KEY, here);
      setOffline(true);
    }
    function backOnline() {
      setOffline(false);
      const saved = sessionStorage.getItem(SAVED_LOCATION_KEY);
      sessionStorage.removeItem(SAVED_LOCATION_KEY);
      if (saved && saved.startsWith("/")) navigate(saved, { replace: true });
    }
    window.addEventListener("offline", goneOffline);
    window.addEventListener("online", backOnline);
    return () => {
      window.removeEventListener("offline", goneOffline);
      window.removeEventListener("online", backOnline);
    };
  }, [here, navigate]);

  if (!offline) return null;
  const home = signedIn ? "/g/home/index" : "/g/main/index";
  return (
    <div
      role="alert"
      data-testid="offline"
      className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/70 p-6"
    >
      <div className="card max-w-md text-center">
        <h2 className="text-lg font-semibold">{t("offline.title")}</h2>
        <p className="mt-2 text-sm text-slate-600">{t("offline.body")}</p>
        <button type="button" className="btn-primary mt-4" onClick={() => navigate(home)}>
          {t("offline.home")}
        </button>
      </div>
    </div>
  );
}
