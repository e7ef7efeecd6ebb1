import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GAS_RANGES } from "#contract/public-chain-codes.ts";
import { Badge } from "#app/components/Badge.tsx";
import { Field } from "#app/components/details.tsx";
import { AssignGasForm, KeystoreForm, assignGasForm } from "#app/components/public-chain/account.tsx";
import { ChartHeading, DayChart } from "#app/components/public-chain/DayChart.tsx";
import { KeyTypeLabel } from "#app/components/public-chain/badges.tsx";
import { formatEther } from "#app/lib/format-number.ts";
import { isCustody } from "#app/lib/public-chain-rules.ts";
import { PC, accountHref, accountsHref, projectHref } from "#app/lib/public-chain-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { oneOf } from "#app/lib/params.ts";
import { newIdempotencyKey } from "#app/lib/payments.server.ts";
import { idParam } from "#app/lib/public-chain.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["publicChain", "services", "billing"],
  breadcrumb: [
    { key: "menu.permissionlessServices", to: PC },
    { key: "titles.publicChainHome", to: `${PC}/Home` },
    { key: "titles.publicChainAccount" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("publicChainAccount", (d: { account?: { name: string } }) => d.account?.name);

const RANGES = Object.keys(GAS_RANGES) as (keyof typeof GAS_RANGES)[];

/**
 * SPEC §2 chain account detail: the address, the gas (energy) read from the chain, the warning value, the
 * custody keystore (password ≥ 8, a POST to Account/keystore answered with the file), assign gas (§9 bill type 50) with a
 * confirm step showing the amount and the balance after, and the gas spent over 5 and 30 days (receipts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const accountId = idParam(request, "accountId");
  const gasRange = oneOf(RANGES, new URL(request.url).searchParams.get("gasRange")) ?? "5d";
  const api = apiFor(request, viewer);
  const [account, summary] = await Promise.all([
    api.load("/sys/opc/account/detail", { accountId, gasRange }),
    api.load("/sys/account/summary", {}),
  ]);
  return json({
    account,
    gasRange,
    balanceCents: summary.balanceCents,
    idempotencyKey: newIdempotencyKey(),
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const accountId = idParam(request, "accountId");
  const formData = await request.formData();
  const api = apiFor(request, viewer);
  intentOf(formData, ["assignGas"]);
  const submission = parseWithZod(formData, { schema: assignGasForm });
  if (submission.status !== "success") return json({ result: submission.reply(), confirm: null }, { status: 400 });
  if (formData.get("confirmed") !== "yes") return json({ result: submission.reply(), confirm: submission.value });
  const result = await api.call("/sys/opc/account/assignGas", { accountId, ...submission.value });
  if (!result.ok)
    return json(
      { result: replyWithFailure(submission, result), confirm: null },
      { status: result.status === 404 ? 404 : 400 },
    );
  return redirectWithFlash(request, accountHref(accountId), {
    kind: "success",
    key: "publicChain:gas.done",
    params: { billNo: result.data.billNo },
  });
}

export default function ChainAccount() {
  const { account: a, gasRange, balanceCents, idempotencyKey, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("publicChain");
  const here = accountHref(a.accountId);
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("account.title", { name: a.name })}
        actions={
          <>
            <Link className="btn-secondary" to={accountsHref(a.projectId)}>
              {t("account.backToList")}
            </Link>
          </>
        }
      />
      {a.gasLow ? (
        <div
          role="alert"
          className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="gas-low-warning"
        >
          {t("account.gasLowText", { warning: formatEther(a.gasWarningWei) })}
        </div>
      ) : null}
      <section className="card">
        <dl className="grid gap-4 sm:grid-cols-3">
          <Field label={t("account.address")}>
            <span className="select-all break-all font-mono" data-testid="account-address">
              {a.address}
            </span>
          </Field>
          <Field label={t("account.keyType")}>
            <KeyTypeLabel keyType={a.keyType} />
          </Field>
          <Field label={t("account.project")}>
            <Link className="link" to={projectHref(a.projectId)}>
              {a.projectName}
            </Link>
          </Field>
          <Field label={t("account.gas")}>
            <span data-testid="gas-balance" data-wei={a.gasWei ?? ""}>
              {a.gasWei === null ? t("account.gasUnknown") : `${formatEther(a.gasWei)} ${t("account.unit")}`}
            </span>
            {a.gasLow ? (
              <>
                {" "}
                <Badge tone="wait">{t("account.gasLow")}</Badge>
              </>
            ) : null}
          </Field>
          <Field label={t("account.gasWarning")}>{`${formatEther(a.gasWarningWei)} ${t("account.unit")}`}</Field>
          <Field label={t("account.created")}>{formatDate(a.createdAt, language, true)}</Field>
        </dl>
      </section>
      <section className="card space-y-3">
        <h2 className="text-lg font-semibold">{t("gas.title")}</h2>
        <p className="text-sm text-slate-600">{t("gas.intro")}</p>
        <AssignGasForm
          action={here}
          balanceCents={balanceCents}
          coinPriceCents={a.coinPriceCents}
          language={language}
          issuedKey={idempotencyKey}
          lastResult={actionData?.result}
          confirm={actionData?.confirm ?? null}
        />
      </section>
      {isCustody(a.keyType) ? (
        <section className="card space-y-3">
          <h2 className="text-lg font-semibold">{t("keystore.title")}</h2>
          <p className="text-sm text-slate-600">{t("keystore.intro")}</p>
          <KeystoreForm action={`${PC}/Account/keystore?accountId=${a.accountId}`} />
        </section>
      ) : null}
      <section className="card space-y-3">
        <ChartHeading
          title={t("gasUsed.title")}
          keep={{ name: "accountId", value: a.accountId }}
          name="gasRange"
          value={gasRange}
          ranges={RANGES}
          labelOf={(r) => t(`gasUsed.ranges.${r}`)}
        />
        <DayChart
          language={language}
          testId="gas-used"
          unit={t("account.unit")}
          format={(v) => v.toLocaleString(language, { maximumFractionDigits: 6 })}
          data={{
            days: a.gasUsed.map((d) => d.day),
            series: a.gasUsed.some((d) => d.transactions > 0)
              ? [{ name: t("gasUsed.series"), data: a.gasUsed.map((d) => Number(formatEther(d.wei))) }]
              : [],
          }}
          texts={{
            title: t("gasUsed.title"),
            day: t("stats.day"),
            total: t("stats.dayTotal"),
            showTable: t("stats.showTable"),
            empty: t("gasUsed.none"),
          }}
        />
      </section>
    </div>
  );
}
