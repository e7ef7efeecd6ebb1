import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Badge } from "#app/components/Badge.tsx";
import { Field } from "#app/components/details.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EventsTable } from "#app/components/public-chain/contract-detail.tsx";
import { apiFor, notFound, requireUser } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { formatEther } from "#app/lib/format-number.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";
import { PC, accountHref, contractHref } from "#app/lib/public-chain-urls.ts";

export const handle = {
  i18n: ["publicChain", "contracts", "services"],
  breadcrumb: [
    { key: "menu.permissionlessServices", to: PC },
    { key: "titles.publicChainHome", to: `${PC}/Home` },
    { key: "titles.publicChainTransaction" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("publicChainTransaction");

const HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * A chain transaction (issue 35 §2, docs/decisions/089), opened from the search box, a contract's events or a
 * write's result: its block and time, sender and receiver (the account's own named and linked), status, gas, and
 * its events decoded with the ABI of the account's contract that emitted each. Another account's is not found.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const hash = new URL(request.url).searchParams.get("hash") ?? "";
  if (!HASH.test(hash)) throw notFound();
  const tx = await apiFor(request, viewer).load("/sys/opc/transaction", { hash });
  return json({ tx, language: viewer.language });
}

export default function Transaction() {
  const { tx, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("publicChain");
  const party = (address: string | null) => {
    if (!address) return <span>—</span>;
    const own = tx.parties.find((p) => p.address.toLowerCase() === address.toLowerCase());
    return (
      <span className="space-y-1">
        <span className="block select-all break-all font-mono">{address}</span>
        {own ? (
          <Link
            className="link block"
            to={own.kind === "account" ? accountHref(own.id) : contractHref(own.id)}
            data-user-content
          >
            {own.name}
          </Link>
        ) : null}
      </span>
    );
  };
  const tone = tx.status === "success" ? "ok" : tx.status === "reverted" ? "bad" : "wait";
  return (
    <div className="space-y-6">
      <PageHeader title={t("transaction.title")} />
      <section className="card" aria-labelledby="tx-heading">
        <h2 id="tx-heading" className="sr-only">
          {t("transaction.title")}
        </h2>
        <dl className="grid gap-4 sm:grid-cols-2">
          <Field label={t("transaction.hash")}>
            <span className="select-all break-all font-mono" data-testid="tx-hash">
              {tx.hash}
            </span>
          </Field>
          <Field label={t("transaction.status")}>
            <Badge tone={tone} testId="tx-status">
              {t(`transaction.statuses.${tx.status}`)}
            </Badge>
          </Field>
          <Field label={t("project.chain")}>{tx.chain}</Field>
          <Field label={t("transaction.block")}>
            {tx.blockNumber === null ? "—" : tx.blockNumber.toLocaleString(language)}
            {tx.time ? <span className="block text-slate-600">{formatDate(tx.time, language)}</span> : null}
          </Field>
          <Field label={t("transaction.from")}>{party(tx.from)}</Field>
          <Field label={tx.created ? t("transaction.created") : t("transaction.to")}>
            {party(tx.created ?? tx.to)}
          </Field>
          <Field label={t("transaction.value")}>
            {t("transaction.gasAmount", { amount: formatEther(tx.valueWei) })}
          </Field>
          <Field label={t("transaction.gasUsed")}>
            {tx.gasUsed === null ? "—" : Number(tx.gasUsed).toLocaleString(language)}
          </Field>
          <Field label={t("transaction.nonce")}>{tx.nonce.toLocaleString(language)}</Field>
        </dl>
      </section>
      <EventsTable
        page={{
          rows: tx.events.map((e) => ({ ...e, blockNumber: tx.blockNumber ?? 0, txHash: tx.hash })),
          pageIndex: 1,
          pageSize: Math.max(1, tx.events.length),
          total: tx.events.length,
        }}
        language={language}
        heading={t("transaction.events")}
        showTransaction={false}
      />
    </div>
  );
}
