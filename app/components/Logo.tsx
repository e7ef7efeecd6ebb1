import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export function Logo({ to = "/g/main/index" }: { to?: string }) {
  const { t } = useTranslation();
  return (
    <Link to={to} className="flex items-center gap-2 font-semibold text-brand-900">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="h-7 w-7">
        <rect width="32" height="32" rx="7" fill="#1f5ad6" />
        <path d="M9 10h8a4 4 0 0 1 0 8H9zM9 18h9a4 4 0 0 1 0 8H9z" fill="none" stroke="#fff" strokeWidth="2.5" />
      </svg>
      <span>{t("brand")}</span>
    </Link>
  );
}
