import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { statusMessageKey } from "#app/lib/errors.ts";

/** Which §8 message an error shows: the backend's message key when there is one, else the HTTP status's. */
export function errorMessageKey(error: unknown): { status: number; key: string } {
  if (isRouteErrorResponse(error)) return { status: error.status, key: statusMessageKey(error.status, error.data) };
  return { status: 500, key: "errors:http.500" };
}

/**
 * The one error boundary component (ARCHITECTURE house habit 4): every §8 case, translated. `standalone`
 * where it replaces a whole page (the root and layout boundaries): it is then the page's main landmark.
 */
export function ErrorView({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  const { t } = useTranslation();
  const { status, key } = errorMessageKey(error);
  const view = (
    <section role="alert" className="mx-auto my-12 max-w-xl card text-center" data-testid="error-view">
      <p className="text-sm font-semibold text-brand-600">{status}</p>
      <h1 className="mt-2 text-xl font-semibold text-slate-900">{t(key)}</h1>
      <p className="mt-2 text-sm text-slate-600">{t("common:errorPage.hint")}</p>
      <div className="mt-6 flex justify-center gap-3">
        <Link to="/g/main/index" className="btn-secondary">
          {t("common:errorPage.home")}
        </Link>
        <a href="" className="btn-primary">
          {t("common:errorPage.retry")}
        </a>
      </div>
    </section>
  );
  return standalone ? <main>{view}</main> : view;
}
