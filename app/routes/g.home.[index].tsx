import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BlockedLink, BlockedPanel } from "#app/components/BlockedAction.tsx";
import { GettingStarted, showsChecklist } from "#app/components/home/Checklist.tsx";
import { MoneyAndInbox, OperatorQueues, ServicesByStatus, UsageSparkline } from "#app/components/home/Dashboard.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { apiFor, redirectAfter, requireUser } from "#app/lib/api.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { loadBlockedPanel, payBillsAndReturn, type PayManyFailure } from "#app/lib/unpaid-guard.server.ts";
import type { loader as shellLoader } from "./g.home.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["home", "billing"],
  breadcrumb: [{ key: "home:console.breadcrumb", operatorKey: "menu.operations" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("console");

/**
 * SPEC §2 /g/home/index: the dashboard a user opens first (docs/decisions/029): money, services by status,
 * join requests, unread messages, 7-day traffic, the operators' queues, the account and shortcuts, from
 * one backend call (/main/home/dashboard) beside the shell's summary, which the page reuses rather than
 * reading again (the unread count, the account facts: docs/decisions/030). After
 * an action refused for unpaid bills (SPEC §7 h5isHasNoPayBillV2 redirects here), `?blocked=<action>&returnTo=`
 * adds the panel that names the bills and pays them ("Pay and continue", docs/decisions/027).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const [dashboard, blocked] = await Promise.all([
    api.load("/main/home/dashboard", {}),
    loadBlockedPanel(request, api),
  ]);
  return json({
    user: dashboard.account,
    dashboard,
    blocked,
    block: dashboard.blockingBills,
    language: viewer.language,
    chainsOnNodes: getEnv().chainsOnNodes,
  });
}

/**
 * The page's forms: "Pay and continue" (intent payAndContinue) and hiding the getting-started checklist
 * (dismissChecklist); any other intent is a 400.
 */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const form = await request.formData();
  const api = apiFor(request, viewer);
  if (intentOf(form, ["payAndContinue", "dismissChecklist"]) === "dismissChecklist")
    return redirectAfter(
      request,
      await api.call("/main/home/checklist/dismiss", {}),
      "/g/home/index",
      "home:checklist.dismissed",
    );
  return payBillsAndReturn(request, api, form, "/g/home/index");
}

export default function HomeIndex() {
  const { user, dashboard: summary, blocked, block, language, chainsOnNodes } = useLoaderData<typeof loader>();
  const failure = useActionData<PayManyFailure>();
  const shell = useRouteLoaderData<typeof shellLoader>("routes/g.home");
  const account = shell?.summary;
  const { t } = useTranslation("home");
  const shortcuts = [
    { key: "newService", to: "/g/home/PermissionedServices/PublishedServices/NewServices?appState=add" },
    { key: "recharge", to: "/g/home/userCenter/MyAccount/Recharge" },
    { key: "bills", to: "/g/home/userCenter/MyBills" },
    { key: "store", to: "/g/home/AppStore" },
    { key: "messages", to: "/g/home/userCenter/MessageCenter" },
    { key: "changePassword", to: "/g/home/userCenter/ChangePassword" },
    { key: "documentation", to: "/g/main/documentation" },
    { key: "nodes", to: "/g/main/index#nodes" },
  ];
  // SPEC §2 keeps /g/home/index as everyone's landing: an operator's is their queues (issue 30 item 4).
  if (summary.queues)
    return (
      <div className="space-y-6">
        <PageHeader
          title={t("console.operatorWelcome", { name: user.realName })}
          description={t("console.operatorIntro")}
          titleClassName="text-2xl font-semibold text-slate-900"
        />
        <OperatorQueues queues={summary.queues} chainsOnNodes={chainsOnNodes} />
      </div>
    );
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("console.welcome", { name: user.realName })}
        titleClassName="text-2xl font-semibold text-slate-900"
      />
      {blocked ? <BlockedPanel panel={blocked} language={language} failure={failure} /> : null}
      {showsChecklist(summary.checklist) ? <GettingStarted checklist={summary.checklist} /> : null}
      <MoneyAndInbox d={summary} unread={shell?.unread ?? 0} language={language} />
      <div className="grid gap-6 lg:grid-cols-2">
        <ServicesByStatus d={summary} />
        <UsageSparkline d={summary} language={language} />
      </div>
      <section aria-labelledby="summary" className="card">
        <h2 id="summary" className="font-semibold">
          {t("console.summary")}
        </h2>
        <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-3">
          <div>
            <dt className="text-slate-500">{t("console.userName")}</dt>
            <dd className="font-medium" data-testid="summary-username" data-user-content="">
              {user.userName}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("console.accountType")}</dt>
            <dd className="font-medium">{t(`common:userType.${user.userType}`)}</dd>
          </div>
          {user.companyName ? (
            <div>
              <dt className="text-slate-500">{t("console.company")}</dt>
              <dd className="font-medium" data-user-content="">
                {user.companyName}
              </dd>
            </div>
          ) : null}
          <div>
            <dt className="text-slate-500">{t("console.email")}</dt>
            <dd className="font-medium">{user.email}</dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("console.memberSince")}</dt>
            <dd className="font-medium">{formatDate(account?.memberSince, language)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("console.lastLogin")}</dt>
            <dd className="font-medium">
              {account?.lastLoginAt ? formatDate(account.lastLoginAt, language, true) : t("console.firstLogin")}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("console.cityNodes")}</dt>
            <dd className="font-medium">{account?.cityNodes}</dd>
          </div>
        </dl>
      </section>
      <section aria-labelledby="shortcuts">
        <h2 id="shortcuts" className="font-semibold">
          {t("console.shortcuts")}
        </h2>
        <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {shortcuts.map((s) => (
            <li key={s.key}>
              <BlockedLink
                to={s.to}
                action="newService"
                block={s.key === "newService" ? block : null}
                className="card block h-full hover:border-brand-500"
              >
                <span className="font-medium text-slate-900">{t(`console.shortcut.${s.key}.title`)}</span>
                <span className="mt-1 block text-sm text-slate-600">{t(`console.shortcut.${s.key}.body`)}</span>
              </BlockedLink>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
