import { json, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SubmitButton } from "#app/components/form-parts.tsx";
import { AccountPageHeading } from "#app/components/payments/wallet.tsx";
import { apiFor, failureResponse, requireUser } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitleRefreshing, useRefreshWhile } from "#app/lib/pending-refresh.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["payments"],
  breadcrumb: [
    { key: "menu.userCenter" },
    { key: "menu.myAccount", to: "/g/home/userCenter/MyAccount" },
    { key: "titles.creditCard" },
  ],
};
export const clientLoader = withNamespaces(handle);

export const meta = pageTitleRefreshing<typeof loader>("creditCard", (data) => data.setup === "open");

/** SPEC §2 MyAccount/Update (credit card), §3 "only last 4 digits kept, handled by a card payment provider". */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const setupRef = new URL(request.url).searchParams.get("setup")?.trim().slice(0, 80) || undefined;
  const data = await apiFor(request, viewer).load("/sys/account/card", { setupRef });
  return json({ ...data, language: viewer.language });
}

/** Starts a card setup at the provider and sends the browser to its page. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  intentOf(await request.formData(), ["setup"]);
  const result = await apiFor(request, viewer).call("/sys/account/cardSetup", {});
  if (!result.ok) throw failureResponse(result);
  return redirectDocument(result.data.redirectUrl);
}

export default function CardPage() {
  const { card, setup, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("payments");
  useRefreshWhile(setup === "open");
  const tone =
    setup === "succeeded"
      ? "border-green-200 bg-green-50 text-green-800"
      : setup === "open"
        ? "border-amber-200 bg-amber-50 text-amber-900"
        : "border-red-200 bg-red-50 text-red-800";
  return (
    <div className="max-w-lg space-y-4">
      <AccountPageHeading title={t("card.title")} />
      {setup ? (
        <p role="status" data-testid="setup-status" className={`rounded-md border p-3 text-sm ${tone}`}>
          {t(`card.setup.${setup}`)}
        </p>
      ) : null}
      <div className="card space-y-3">
        <p className="text-sm text-slate-600">{t("card.intro")}</p>
        <h2 className="font-semibold">{t("card.current")}</h2>
        {card ? (
          <div data-testid="current-card">
            <p className="text-lg">{t("card.number", { brand: card.brand, last4: card.last4 })}</p>
            {card.expMonth && card.expYear ? (
              <p className="text-sm text-slate-600">
                {t("card.expires", { month: String(card.expMonth).padStart(2, "0"), year: card.expYear })}
              </p>
            ) : null}
            <p className="text-xs text-slate-500">
              {t("card.updated", { date: formatDate(card.updatedAt, language, true) })}
            </p>
          </div>
        ) : (
          <p className="text-slate-500" data-testid="current-card">
            {t("card.none")}
          </p>
        )}
        <Form method="post" reloadDocument>
          <SubmitButton intent="setup" className="btn-primary">
            {card ? t("card.replace") : t("card.add")}
          </SubmitButton>
        </Form>
      </div>
    </div>
  );
}
