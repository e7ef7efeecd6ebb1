import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CONFIGURATION } from "#app/lib/configuration-urls.ts";
import { UpgradeForm } from "#app/components/configuration/UpgradeForm.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { upgradeAction } from "#app/lib/configuration.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { requiredId } from "#app/lib/params.server.ts";
import { requireNoUnpaidBills } from "#app/lib/unpaid-guard.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["configuration", "wizard"],
  breadcrumb: [
    { key: "menu.permissionedServices" },
    { key: "titles.configuration", to: CONFIGURATION },
    { key: "titles.configurationNew" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("configurationNew", (d) => d.options?.name);

/**
 * SPEC §2 ConfigurationNew (`?appId=`): a node upgrade or a resource upgrade of a running service. Unpaid
 * bills block the entry (§7 h5isHasNoPayBillV2 payType 1); a §5 refusal (another upgrade in progress,
 * within 6 hours of the last success, within 5 days of the cycle's end) is shown instead of the form.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const appId = requiredId(new URL(request.url), "appId");
  const api = apiFor(request, viewer);
  // Another user's or an unknown service is not found before anything else is said about it.
  const [options, catalogue] = await Promise.all([
    api.load("/sys/configUpgrade/options", { appId }),
    api.load("/anon/platform/cityNodes", {}),
  ]);
  await requireNoUnpaidBills(request, viewer, "configUpgrade");
  return json({ options, catalogue, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  return upgradeAction(request, apiFor(request, viewer), await request.formData());
}

export default function ConfigurationNewPage() {
  const { options, catalogue, language } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t } = useTranslation(["configuration", "errors"]);
  return (
    <div className="space-y-4">
      <Link to={CONFIGURATION} className="link text-sm">
        ← {t("detail.back")}
      </Link>
      <PageHeader title={t("newFor", { name: options.name })} />
      {options.cycleEnd ? (
        <p className="text-sm text-slate-700">
          {t("form.cycleEnds", { date: formatDate(options.cycleEnd, language, true) })}
        </p>
      ) : null}
      {options.refusal ? (
        <section role="alert" className="card border-red-200 bg-red-50" data-testid="upgrade-refused">
          <h2 className="font-semibold text-red-800">{t("refused")}</h2>
          <p className="mt-1 text-sm text-red-800">{t(`errors:${options.refusal}`)}</p>
        </section>
      ) : (
        <UpgradeForm
          options={options}
          catalogue={catalogue}
          language={language}
          result={answer?.result}
          quote={answer?.quote ?? null}
        />
      )}
    </div>
  );
}
