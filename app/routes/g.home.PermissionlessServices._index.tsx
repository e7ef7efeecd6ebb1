import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import { OPEN_ALLIANCE_APP_TYPE } from "#contract/public-chain-codes.ts";
import { idempotencyKey } from "#contract/rules.ts";
import { BlockedLink } from "#app/components/BlockedAction.tsx";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { FormErrors } from "#app/components/form-parts.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { SearchForm } from "#app/components/SearchForm.tsx";
import { inLanguage } from "#app/components/details.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { ConsoleTabs } from "#app/components/public-chain/badges.tsx";
import { PC } from "#app/lib/public-chain-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatUsd } from "#app/lib/format.ts";
import { intentOf, parseFormOr400 } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { oneOf, pageParam, searchParam } from "#app/lib/params.ts";
import { newIdempotencyKey } from "#app/lib/payments.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { blockOf, requireNoUnpaidBills } from "#app/lib/unpaid-guard.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["publicChain", "billing", "services"],
  breadcrumb: [{ key: "menu.permissionlessServices" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("publicChainNodes");

const PAGE_SIZE = 10;
const APP_TYPES = [String(OPEN_ALLIANCE_APP_TYPE)] as const;
const buyForm = z.object({
  intent: z.literal("buy"),
  orgId: z.coerce.number().int().positive(),
  idempotencyKey: idempotencyKey(),
  confirmed: z.literal("yes").optional(),
});

/**
 * SPEC §2 PermissionlessServices Index: the §3 organisation nodes offering the public chain
 * (/sys/pubChainOrg/queryPubOrgList with its exact payload) with their plans and limits, and Buy a plan.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const orgName = searchParam(url.searchParams);
  const appType = oneOf(APP_TYPES, url.searchParams.get("appType"));
  const api = apiFor(request, viewer);
  const [list, summary, block] = await Promise.all([
    api.call("/sys/pubChainOrg/queryPubOrgList", {
      page: {
        pageSize: PAGE_SIZE,
        pageIndex: pageParam(url),
        condition: { ...(orgName ? { orgName } : {}), ...(appType ? { appType: Number(appType) } : {}) },
      },
    }),
    api.load("/sys/account/summary", {}),
    blockOf(api, 1),
  ]);
  return json({
    page: list.ok ? list.data.page : null,
    listError: list.ok ? null : list.messageKey,
    orgName,
    appType: appType ?? "",
    balanceCents: summary.balanceCents,
    block,
    idempotencyKey: newIdempotencyKey(),
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  intentOf(formData, ["buy"]);
  const input = parseFormOr400(buyForm, formData);
  await requireNoUnpaidBills(request, viewer, "buyPlan");
  if (input.confirmed !== "yes")
    return json({ confirm: { orgId: input.orgId, idempotencyKey: input.idempotencyKey }, error: null });
  const result = await apiFor(request, viewer).call("/sys/opc/plan/buy", {
    orgId: input.orgId,
    idempotencyKey: input.idempotencyKey,
  });
  if (!result.ok)
    return json(
      { confirm: null, error: { orgId: input.orgId, messageKey: result.messageKey } },
      { status: result.status === 404 ? 404 : 400 },
    );
  return redirectWithFlash(request, `${PC}/Home`, {
    kind: "success",
    key: "publicChain:buy.done",
    params: { billNo: result.data.billNo },
  });
}

export default function PublicChainIndex() {
  const {
    page,
    listError,
    orgName,
    appType,
    balanceCents,
    block,
    idempotencyKey: key,
    language,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("publicChain");
  const confirmOrg = actionData?.confirm ? page?.rows.find((r) => r.orgId === actionData.confirm?.orgId) : null;
  const price = (cents: number) => formatUsd(cents, language);
  const question = (o: { priceCents: number; periodDays: number }) =>
    t("buy.question", {
      price: price(o.priceCents),
      days: o.periodDays,
      balance: price(balanceCents),
      after: price(balanceCents - o.priceCents),
    });
  return (
    <div className="space-y-4">
      <PageHeader title={t("index.title")} />
      <ConsoleTabs current="index" />
      <p className="text-sm text-slate-600">{t("index.intro", { balance: price(balanceCents) })}</p>
      {confirmOrg && actionData?.confirm ? (
        <IntentConfirmStep
          id="buy-confirm"
          title={t("buy.title", { node: inLanguage(confirmOrg.orgName, confirmOrg.orgNameZh, language) })}
          question={question(confirmOrg)}
          intent="buy"
          fields={{ orgId: confirmOrg.orgId, idempotencyKey: actionData.confirm.idempotencyKey }}
          action={`${PC}?index`}
          cancelTo={PC}
          confirmLabel={t("buy.confirm")}
          cancelLabel={t("common:actions.cancel")}
        />
      ) : null}
      <SearchForm
        idPrefix="pco"
        search={{ label: t("index.search"), value: orgName }}
        filter={{
          name: "appType",
          label: t("index.appType"),
          value: appType,
          allLabel: t("index.allTypes"),
          options: APP_TYPES.map((a) => ({ value: a, label: t(`appType.${a}`) })),
        }}
        submit={{ label: t("index.filter"), className: "btn-secondary" }}
      />
      {listError ? <FormErrors errors={[listError]} /> : null}
      {page && page.rows.length === 0 ? (
        <EmptyState message={orgName || appType ? t("index.emptyFiltered") : t("index.empty")} testId="empty" />
      ) : null}
      {page && page.rows.length > 0 ? (
        <Table
          label={t("index.title")}
          regionTestId="org-list"
          head={[
            t("index.node"),
            t("index.operator"),
            t("index.plan"),
            t("index.price"),
            t("index.limits"),
            t("index.actions"),
          ]}
        >
          {page.rows.map((o) => (
            <tr key={o.orgId} data-testid="org-row">
              <td className={td}>
                {inLanguage(o.orgName, o.orgNameZh, language)}
                <div className="font-mono text-xs text-slate-600">{o.orgCode}</div>
              </td>
              <td className={td}>{inLanguage(o.opName, o.opNameZh, language)}</td>
              <td className={td}>{inLanguage(o.planName, o.planNameZh, language)}</td>
              <td className={td}>{t("index.pricePer", { price: price(o.priceCents), days: o.periodDays })}</td>
              <td className={`${td} text-xs`}>
                <div>{t("index.projectMax", { count: o.haveProjectMax, used: o.haveProjectNum })}</div>
                <div>
                  {t("index.dayRange", {
                    min: o.haveDayMinReq.toLocaleString(language),
                    max: o.haveDayMaxReq.toLocaleString(language),
                  })}
                </div>
              </td>
              <td className={td}>
                {o.userHaveOrg ? (
                  <span className="space-y-1">
                    <span className="block text-xs text-slate-600" data-testid="have-plan">
                      {t("index.havePlan")}
                    </span>
                    <Link className="link" to={`${PC}/Home`}>
                      {t("index.openConsole")}
                    </Link>
                  </span>
                ) : block ? (
                  <BlockedLink to={PC} action="buyPlan" block={block} compact className="link">
                    {t("buy.button")}
                  </BlockedLink>
                ) : (
                  <Form method="post" action={`${PC}?index`} id={`buy-${o.orgId}`}>
                    <input type="hidden" name="orgId" value={o.orgId} />
                    <input type="hidden" name="idempotencyKey" value={key} />
                    <input type="hidden" name="intent" value="buy" />
                    <ConfirmSubmit
                      formId={`buy-${o.orgId}`}
                      label={t("buy.button")}
                      className="btn-primary !py-1"
                      title={t("buy.title", { node: inLanguage(o.orgName, o.orgNameZh, language) })}
                      question={question(o)}
                      confirmLabel={t("buy.confirm")}
                    />
                  </Form>
                )}
                {actionData?.error?.orgId === o.orgId ? <FormErrors errors={[actionData.error.messageKey]} /> : null}
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
      {page ? <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} /> : null}
    </div>
  );
}
