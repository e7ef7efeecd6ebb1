import { Form, Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LanguageSwitch } from "./LanguageSwitch.tsx";
import { Logo } from "./Logo.tsx";

/** "Mail me a desktop link" for `path` (a /g/ page): the address, and a POST that mails it (no JavaScript needed). */
export function DesktopLinkForm({ path, className = "" }: { path: string; className?: string }) {
  const { t } = useTranslation();
  return (
    <Form
      method="post"
      action="/g/main/desktopLink"
      className={`space-y-2 text-left ${className}`}
      data-testid="desktop-link-form"
    >
      <input type="hidden" name="path" value={path} />
      <label htmlFor="desktop-link-email" className="label">
        {t("mobile.emailLabel")}
      </label>
      <input
        id="desktop-link-email"
        name="email"
        type="email"
        required
        autoComplete="email"
        maxLength={100}
        className="input"
      />
      <button type="submit" className="btn-primary w-full">
        {t("mobile.mailLink")}
      </button>
    </Form>
  );
}

/**
 * SPEC §2: on a mobile device only some pages are reachable; the rest ask for a desktop (issue 16): with
 * the logo, the language switch, Log in or Log out, and "mail me a desktop link" (a POST to
 * /g/main/desktopLink, which mails this page's address; works without JavaScript).
 */
export function MobileNotice({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  const location = useLocation();
  const here = location.pathname + location.search;
  return (
    <div className="flex min-h-full flex-col" data-testid="desktop-only">
      <header className="flex items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-3">
        <Logo />
        <LanguageSwitch />
      </header>
      <main className="mx-auto w-full max-w-md flex-1 p-6 text-center">
        <h1 className="text-xl font-semibold">{t("mobile.title")}</h1>
        <p className="mt-3 text-slate-700">{t("mobile.body")}</p>
        <DesktopLinkForm path={here} className="mt-6" />
        <div className="mt-6 flex flex-col gap-2">
          {signedIn ? (
            <Form method="post" action="/g/home/logout">
              <button type="submit" className="btn-secondary w-full">
                {t("mobile.logout")}
              </button>
            </Form>
          ) : (
            <Link className="btn-secondary" to="/g/main/Login/Logins">
              {t("nav.login")}
            </Link>
          )}
          <Link className="btn-secondary" to="/g/main/index">
            {t("mobile.home")}
          </Link>
          <Link className="link" to="/g/main/documentation">
            {t("nav.documentation")}
          </Link>
        </div>
      </main>
    </div>
  );
}
