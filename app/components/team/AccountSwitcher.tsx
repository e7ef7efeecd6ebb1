import { useTranslation } from "react-i18next";

export type AccountChoice = { teamAccountId: number; name: string; role: string; current: boolean };

/**
 * The top bar's account switcher (issue 33): the account the session acts for, and a plain link to each other
 * account the login belongs to (a GET, so it works without JavaScript; the backend checks the membership again).
 */
export function AccountSwitcher({ accounts }: { accounts: AccountChoice[] }) {
  const { t } = useTranslation();
  const current = accounts.find((a) => a.current);
  if (!current || accounts.length < 2) return null;
  return (
    <details className="relative" data-testid="account-switcher">
      <summary className="cursor-pointer rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100">
        <span className="sr-only">{t("team.actingFor")}: </span>
        <span data-testid="acting-account">{current.name}</span>{" "}
        <span className="text-xs text-slate-500">({t(`team.roles.${current.role}`)})</span>
      </summary>
      <ul className="absolute right-0 z-40 mt-1 min-w-56 rounded-md border border-slate-200 bg-white p-1 shadow">
        {accounts.map((a) => (
          <li key={a.teamAccountId}>
            {a.current ? (
              <span className="block px-3 py-2 text-sm font-semibold" aria-current="true">
                {a.name} · {t(`team.roles.${a.role}`)}
              </span>
            ) : (
              <a
                href={`/g/home/team/switch?accountId=${a.teamAccountId}`}
                className="block rounded px-3 py-2 text-sm text-slate-700 hover:bg-slate-100"
              >
                {t("team.switchTo", { name: a.name })} · {t(`team.roles.${a.role}`)}
              </a>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}
