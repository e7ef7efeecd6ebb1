import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ACCOUNT_BINDING_PATH } from "#contract/ddc-codes.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";

export type Binding = { bindingId: number; address: string; chainId: number; createdAt: string };

/**
 * The addresses bound to the account (docs/decisions/045), each with Unbind (confirmed: a dialog, or the
 * confirm step `confirm` without JavaScript), posted to `action` with intent "unbind".
 */
export function BoundAddresses({
  rows,
  language,
  action,
  confirm,
}: {
  rows: Binding[];
  language: Language;
  action: string;
  confirm?: { bindingId: string } | null;
}) {
  const { t } = useTranslation("ddc");
  const confirming = confirm ? rows.find((r) => String(r.bindingId) === confirm.bindingId) : undefined;
  return (
    <section className="card space-y-3" aria-labelledby="bindings-heading" data-testid="bindings">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="bindings-heading" className="text-base font-semibold">
          {t("binding.listTitle")}
        </h2>
        <Link className="btn-secondary" to={ACCOUNT_BINDING_PATH}>
          {t("binding.bindNew")}
        </Link>
      </div>
      {confirming ? (
        <IntentConfirmStep
          id="unbind-confirm"
          title={t("confirm.unbind.title")}
          question={t("confirm.unbind.question", { address: confirming.address })}
          intent="unbind"
          fields={{ bindingId: confirming.bindingId }}
          action={action}
          cancelTo={action}
          confirmLabel={t("confirm.unbind.confirm")}
          cancelLabel={t("common:actions.cancel")}
          danger
        />
      ) : null}
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="bindings-empty">
          {t("binding.none")}
        </p>
      ) : (
        <Table
          label={t("binding.listTitle")}
          regionTestId="bindings-table"
          head={[t("binding.address"), t("fields.chainId"), zoneHeader(t, t("binding.boundAt")), ""]}
        >
          {rows.map((r) => (
            <tr key={r.bindingId} data-testid="binding-row">
              <td className={`${td} break-all font-mono text-xs`}>{r.address}</td>
              <td className={td}>{r.chainId}</td>
              <td className={td}>{formatDate(r.createdAt, language, true, false)}</td>
              <td className={td}>
                <Form method="post" action={action} id={`unbind-${r.bindingId}`}>
                  <input type="hidden" name="bindingId" value={r.bindingId} />
                  <ConfirmSubmit
                    formId={`unbind-${r.bindingId}`}
                    name="intent"
                    value="unbind"
                    label={t("binding.unbind")}
                    title={t("confirm.unbind.title")}
                    question={t("confirm.unbind.question", { address: r.address })}
                    confirmLabel={t("confirm.unbind.confirm")}
                    className="btn-secondary !py-1"
                  />
                </Form>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
