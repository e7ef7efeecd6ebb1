import { Form, Link, useActionData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";

/** Shared pieces of the detail and list pages of services and participations. */

export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-semibold uppercase text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

export { inLanguage, nodeLabel } from "#app/lib/i18n.ts";

/**
 * A bill to pay from the balance now (a service's publish bill, a participation's node order): its number,
 * amount and deadline, and a Pay form carrying the item's id and the idempotency key the loader issued. A
 * refusal (the action's payRefused answer) shows its message, with a link to recharge when the balance was
 * too low. `id` is the anchor; `texts` the group of keys (title, body, billNo, amount, deadline, recharge,
 * submit) such as "services:pay".
 */
export function BillPayPanel({
  id,
  bill,
  item,
  payKey,
  language,
  texts,
}: {
  id: string;
  /** `expired`: the bill expired unpaid and paying issues a fresh one for `reissueCents` (the node order, ADR 013). */
  bill: { billNo: string; totalCents: number; deadline: string; expired?: boolean; reissueCents?: number | null };
  item: { name: string; value: number };
  payKey: string;
  language: Language;
  texts: string;
}) {
  const { t } = useTranslation();
  const answer = useActionData<{
    kind?: string;
    error?: string;
    params?: Record<string, string>;
    recharge?: boolean;
    waiting?: boolean;
  }>();
  const refusal =
    answer?.kind === "pay" && answer.error
      ? { error: answer.error, params: answer.params ?? {}, recharge: !!answer.recharge, waiting: !!answer.waiting }
      : null;
  const expired = !!bill.expired;
  const amount = formatUsd(expired ? (bill.reissueCents ?? bill.totalCents) : bill.totalCents, language);
  return (
    <section
      id={id}
      className="card border-amber-200 bg-amber-50"
      aria-labelledby={`${id}-title`}
      data-testid={expired ? `${id}-expired` : id}
    >
      <h2 id={`${id}-title`} className="font-semibold">
        {t(expired ? `${texts}.expiredTitle` : `${texts}.title`)}
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {expired ? t(`${texts}.expiredBody`, { billNo: bill.billNo, amount }) : t(`${texts}.body`)}
      </p>
      <dl className="mt-2 grid gap-3 sm:grid-cols-3">
        <Field label={t(`${texts}.billNo`)}>
          {bill.billNo}
          {expired ? (
            <span className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs text-slate-700">
              {t(`${texts}.expired`)}
            </span>
          ) : null}
        </Field>
        <Field label={t(`${texts}.amount`)}>{amount}</Field>
        <Field label={t(`${texts}.deadline`)}>{formatDate(bill.deadline, language, true)}</Field>
      </dl>
      {refusal?.waiting ? (
        <p role="status" className="mt-2 text-sm font-medium text-amber-800" data-testid="sent-to-finance">
          {t(refusal.error, refusal.params)}
        </p>
      ) : refusal ? (
        <div className="mt-2">
          {Object.keys(refusal.params).length ? (
            <p role="alert" className="text-sm text-red-700">
              {t(refusal.error, refusal.params)}
            </p>
          ) : (
            <FormErrors errors={[refusal.error]} />
          )}
          {refusal.recharge ? (
            <Link to="/g/home/userCenter/MyAccount/Recharge" className="link mt-1 inline-block text-sm">
              {t(`${texts}.recharge`)}
            </Link>
          ) : null}
        </div>
      ) : null}
      <Form method="post" className="mt-3">
        <input type="hidden" name={item.name} value={item.value} />
        <input type="hidden" name="idempotencyKey" value={payKey} />
        <SubmitButton intent="pay" className="btn-primary">
          {t(`${texts}.submit`, { amount })}
        </SubmitButton>
      </Form>
    </section>
  );
}
