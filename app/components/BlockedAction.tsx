import { Form, Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { BillRow } from "#contract/billing.ts";
import { billDetailHref, billTypeLabel, billSubject } from "#app/lib/bills.ts";
import { blockedHomeHref, type Block, type BlockedAction } from "#app/lib/blocked.ts";
import { formatDate, formatUsd, zoneHeader } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { Table } from "./Table.tsx";
import { SubmitButton } from "./form-parts.tsx";

/*
 * Blocked actions explained (issue 16, docs/decisions/027), the UI half; the server half is
 * app/lib/unpaid-guard.server.ts. BlockedLink is an entry before the click, BlockedPanel the explanation on
 * home after the guard's redirect, PayBillsForm the POST that pays several bills (Pay and continue, Pay all).
 */

const RECHARGE = "/g/home/userCenter/MyAccount/Recharge";

/**
 * An entry (button or row link) to an action SPEC §5 blocks. Without a block it is the plain link; with one
 * it looks disabled, says why (how many unpaid bills, how much) and links to home's panel, where they are
 * named and paid, and which returns to `to`. `compact` (row actions) puts the reason in the link's text.
 */
export function BlockedLink({
  to,
  action,
  block,
  className,
  compact = false,
  children,
}: {
  to: string;
  action: BlockedAction;
  block: Block;
  className?: string;
  compact?: boolean;
  children: ReactNode;
}) {
  const { t, i18n } = useTranslation("common");
  if (!block)
    return (
      <Link to={to} className={className}>
        {children}
      </Link>
    );
  const reason = t("blocked.reason", {
    count: block.count,
    amount: formatUsd(block.totalCents, i18n.language as Language),
  });
  const panel = blockedHomeHref(action, to);
  if (compact) {
    return (
      <span className="inline-flex items-center gap-1" data-testid="blocked-entry">
        <span aria-disabled="true" className="cursor-not-allowed text-slate-500 line-through decoration-slate-400">
          {children}
        </span>
        <Link to={panel} className="link text-xs" title={reason}>
          {t("blocked.why")}
        </Link>
      </span>
    );
  }
  return (
    <span className="inline-flex flex-col items-start gap-1" data-testid="blocked-entry">
      <span aria-disabled="true" className={`${className ?? ""} cursor-not-allowed opacity-50`}>
        {children}
      </span>
      <span className="text-xs text-slate-600">
        {reason}{" "}
        <Link to={panel} className="link font-medium">
          {t("blocked.payFirst")}
        </Link>
      </span>
    </span>
  );
}

/**
 * The same entry as a menu item (RowActions): without a block the target itself; with one, home's panel as
 * the target and the reason as the item's note, so the menu says before the click why the action is blocked.
 */
export function useBlockedTarget() {
  const { t, i18n } = useTranslation("common");
  return (action: BlockedAction, block: Block, to: string): { to: string; note?: string; blocked: boolean } =>
    block
      ? {
          to: blockedHomeHref(action, to),
          note: t("blocked.reason", {
            count: block.count,
            amount: formatUsd(block.totalCents, i18n.language as Language),
          }),
          blocked: true,
        }
      : { to, blocked: false };
}

type DueBill = BillRow & { payable: boolean };

/** The bills a payment covers: number (to its detail), what for, amount and deadline (UTC+8 in the header). */
function DueBillsTable({ bills, language }: { bills: DueBill[]; language: Language }) {
  // The bill types' names are in the billing namespace: load it on a client-side navigation too.
  const { t } = useTranslation(["common", "billing"]);
  return (
    <Table
      variant="compact"
      label={t("billing:bills.due.title")}
      testId="due-bills"
      rows={bills}
      rowKey={(b) => b.billId}
      columns={[
        {
          header: t("blocked.billNo"),
          cell: (b) => (
            <Link to={billDetailHref(b)} className="link font-mono text-xs">
              {b.billNo}
            </Link>
          ),
        },
        {
          header: t("blocked.type"),
          cell: (b) => `${billTypeLabel(t, b.billType)}${b.serviceName ? ` · ${billSubject(t, b)}` : ""}`,
        },
        { header: t("blocked.amount"), numeric: true, cell: (b) => formatUsd(b.payCents, language) },
        { header: zoneHeader(t, t("blocked.deadline")), cell: (b) => formatDate(b.deadline, language, true, false) },
      ]}
    />
  );
}

/**
 * The POST that pays `bills` from the balance in one backend transaction and goes to `returnTo` (validated
 * again on the server): works without JavaScript; the key issued by the loader makes a second submit a no-op.
 */
export function PayBillsForm({
  bills,
  idempotencyKey,
  returnTo,
  intent,
  label,
  cancel,
}: {
  bills: DueBill[];
  idempotencyKey: string;
  returnTo: string | null;
  intent: string;
  label: string;
  cancel?: { to: string; label: string };
}) {
  const location = useLocation();
  return (
    <Form method="post" action={location.pathname + location.search} className="flex flex-wrap items-center gap-2">
      {bills
        .filter((b) => b.payable)
        .map((b) => (
          <input key={b.billId} type="hidden" name="billId" value={b.billId} />
        ))}
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
      <SubmitButton intent={intent} className="btn-primary">
        {label}
      </SubmitButton>
      {cancel ? (
        <Link to={cancel.to} className="btn-secondary">
          {cancel.label}
        </Link>
      ) : null}
    </Form>
  );
}

/** Why a payment was refused (insufficient balance links to Recharge). */
export function PayFailure({ failure }: { failure: { messageKey: string; insufficient: boolean } | undefined }) {
  const { t } = useTranslation("common");
  if (!failure) return null;
  return (
    <div
      role="alert"
      data-testid="pay-error"
      className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700"
    >
      <p>{t(failure.messageKey)}</p>
      {failure.insufficient ? (
        <p className="mt-2">
          <Link to={RECHARGE} className="link font-medium">
            {t("blocked.recharge")}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

/** What home shows after a blocked action: the action tried, the bills in the way, "Pay and continue". */
export function BlockedPanel({
  panel,
  language,
  failure,
}: {
  panel: {
    action: BlockedAction;
    returnTo: string | null;
    due: { bills: DueBill[]; count: number; totalCents: number; payableCents: number };
    balanceCents: number;
    idempotencyKey: string;
  };
  language: Language;
  failure?: { messageKey: string; insufficient: boolean };
}) {
  const { t } = useTranslation("common");
  const action = t(`blocked.actions.${panel.action}`);
  const money = (cents: number) => formatUsd(cents, language);
  const { due } = panel;
  if (due.count === 0) {
    return (
      <section aria-labelledby="blocked-title" className="card border-green-200" data-testid="blocked-panel">
        <h2 id="blocked-title" className="font-semibold">
          {t("blocked.clearTitle", { action })}
        </h2>
        {panel.returnTo ? (
          <Link to={panel.returnTo} className="btn-primary mt-3 inline-block">
            {t("blocked.continue")}
          </Link>
        ) : null}
      </section>
    );
  }
  const payable = due.bills.some((b) => b.payable);
  return (
    <section aria-labelledby="blocked-title" className="card space-y-3 border-amber-300" data-testid="blocked-panel">
      <h2 id="blocked-title" className="font-semibold">
        {t("blocked.title", { action })}
      </h2>
      <p className="text-sm text-slate-700">
        {t("blocked.intro", { count: due.count, amount: money(due.totalCents) })}
      </p>
      <div className="overflow-x-auto">
        <DueBillsTable bills={due.bills} language={language} />
      </div>
      <p className="text-sm text-slate-600" data-testid="blocked-balance">
        {t("blocked.balance", { balance: money(panel.balanceCents) })}
      </p>
      {payable && panel.balanceCents < due.payableCents ? (
        <p className="text-sm text-amber-800">
          {t("blocked.short")}{" "}
          <Link to={RECHARGE} className="link">
            {t("blocked.recharge")}
          </Link>
        </p>
      ) : null}
      {!payable ? <p className="text-sm text-slate-600">{t("blocked.notPayable")}</p> : null}
      <PayFailure failure={failure} />
      {payable ? (
        <PayBillsForm
          bills={due.bills}
          idempotencyKey={panel.idempotencyKey}
          returnTo={panel.returnTo}
          intent="payAndContinue"
          label={t("blocked.payAndContinue", { amount: money(due.payableCents) })}
          cancel={{ to: "/g/home/index", label: t("blocked.notNow") }}
        />
      ) : null}
    </section>
  );
}
