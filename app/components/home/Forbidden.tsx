import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "#app/components/PageHeader.tsx";

/**
 * A console page the member's role may not open (issue 33, docs/decisions/075): said inside the shell, menu
 * and all, as a not-found is (docs/decisions/066), with the backend's message naming the roles that may.
 */
export function ConsoleForbidden({ messageKey }: { messageKey: string | null }) {
  const { t } = useTranslation(["common", "errors"]);
  return (
    <section className="space-y-4" data-testid="forbidden">
      <PageHeader title={t("common:team.forbidden.title")} />
      <div role="alert" className="card space-y-3">
        <p className="text-slate-800" data-testid="forbidden-why">
          {messageKey ? t(messageKey) : t("common:team.forbidden.why")}
        </p>
        <p>
          <Link to="/g/home/index" className="btn-primary">
            {t("common:notFound.toConsole")}
          </Link>
        </p>
      </div>
    </section>
  );
}
