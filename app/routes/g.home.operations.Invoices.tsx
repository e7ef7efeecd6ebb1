import { FormProvider, getFormProps } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  approveInvoiceSchema,
  deliverInvoiceFormSchema,
  INVOICE_STATUSES,
  rejectInvoiceSchema,
  type InvoiceDetail,
} from "#contract/invoices.ts";
import { FormErrors, SubmitButton, TextAreaField, TextField } from "#app/components/forms.tsx";
import { FilterPills } from "#app/components/FilterPills.tsx";
import { applicationColumns, InvoiceDetailView } from "#app/components/invoices/application.tsx";
import { RecordTable } from "#app/components/RecordTable.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { optionalId, readFailure } from "#app/lib/invoices.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import type { DecisionActionData } from "#app/components/ReviewRow.tsx";
import { decideQueueItem, queueDecision } from "#app/lib/operations-review.server.ts";
import { pageParam } from "#app/lib/params.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

export const handle = { i18n: ["invoices"], breadcrumb: [{ key: "menu.invoices" }] };
export const meta = pageTitle("invoiceQueue");

const PAGE_SIZE = 10;
type StatusFilter = "all" | "1" | "3" | "5" | "10";

function readQuery(url: URL) {
  const raw = url.searchParams.get("status");
  // The queue opens on what needs a decision: pending review.
  const filter: StatusFilter =
    raw === "all" || INVOICE_STATUSES.some((s) => String(s) === raw) ? (raw as StatusFilter) : "1";
  return { filter, page: pageParam(url) };
}

/** Operations queue of invoice applications (SPEC §6 "Invoices need reviewer approval"; docs/decisions/008). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const { filter, page } = readQuery(url);
  const api = apiFor(request, viewer);
  const list = await api.load("/sys/operations/invoices/list", {
    page: {
      pageSize: PAGE_SIZE,
      pageIndex: page,
      condition: filter === "all" ? {} : { status: Number(filter) as 1 | 3 | 5 | 10 },
    },
  });
  const id = optionalId(url, "id");
  let detail: InvoiceDetail | null = null;
  if (id !== null) {
    const result = await api.call("/sys/operations/invoices/detail", { invoiceId: id });
    if (!result.ok) throw readFailure(result);
    detail = result.data;
  }
  return json({ page: list.page, filter, detail, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const api = apiFor(request, viewer);
  return decideQueueItem(request, {
    idName: "invoiceId",
    decisions: {
      approve: queueDecision({
        schema: approveInvoiceSchema,
        decide: (v) => api.call("/sys/operations/invoices/approve", v),
        flash: "invoices:queue.approved",
      }),
      reject: queueDecision({
        schema: rejectInvoiceSchema,
        decide: (v) => api.call("/sys/operations/invoices/reject", v),
        flash: "invoices:queue.rejected",
      }),
      deliver: queueDecision({
        schema: deliverInvoiceFormSchema,
        decide: ({ issuance: _issuance, ...payload }) => api.call("/sys/operations/invoices/deliver", payload),
        flash: "invoices:queue.delivered",
      }),
    },
  });
}

/** The reply of the last submission, for the form of that intent only. */
function useReply(intent: string) {
  const actionData = useActionData<DecisionActionData>();
  return actionData?.intent === intent ? actionData.result : undefined;
}

/** Approve or reject, each with its comments (required to reject). */
function CommentDecision({
  detail,
  intent,
  schema,
  commentsLabel,
  buttonClass,
}: {
  detail: InvoiceDetail;
  intent: "approve" | "reject";
  schema: typeof approveInvoiceSchema | typeof rejectInvoiceSchema;
  commentsLabel: string;
  buttonClass: string;
}) {
  const { t } = useTranslation("invoices");
  const location = useLocation();
  const [form, fields] = useSchemaForm(schema, useReply(intent), { id: `${intent}-${detail.invoiceId}` });
  return (
    <FormProvider context={form.context}>
      <Form
        method="post"
        action={location.pathname + location.search}
        {...getFormProps(form)}
        className="card space-y-3"
        aria-labelledby={`${intent}-heading`}
      >
        <h3 id={`${intent}-heading`} className="font-semibold">
          {t(`queue.${intent}`)}
        </h3>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="invoiceId" value={detail.invoiceId} />
        <TextAreaField field={fields.comments} label={commentsLabel} rows={2} />
        <SubmitButton intent={intent} className={buttonClass}>
          {t(`queue.${intent}`)}
        </SubmitButton>
      </Form>
    </FormProvider>
  );
}

function ReviewForms({ detail }: { detail: InvoiceDetail }) {
  const { t } = useTranslation("invoices");
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <CommentDecision
        detail={detail}
        intent="approve"
        schema={approveInvoiceSchema}
        commentsLabel={t("queue.approveComments")}
        buttonClass="btn-primary"
      />
      <CommentDecision
        detail={detail}
        intent="reject"
        schema={rejectInvoiceSchema}
        commentsLabel={t("queue.rejectComments")}
        buttonClass="btn-danger"
      />
    </div>
  );
}

function DeliverForm({ detail }: { detail: InvoiceDetail }) {
  const { t } = useTranslation("invoices");
  const location = useLocation();
  const paper = detail.issuance === 1;
  const [form, fields] = useSchemaForm(deliverInvoiceFormSchema, useReply("deliver"), {
    id: `deliver-${detail.invoiceId}`,
    defaultValue: { deliveryEmail: detail.recipient.email ?? undefined },
  });
  return (
    <FormProvider context={form.context}>
      <Form
        method="post"
        action={location.pathname + location.search}
        {...getFormProps(form)}
        className="card space-y-3"
        aria-labelledby="deliver-heading"
      >
        <h3 id="deliver-heading" className="font-semibold">
          {t("queue.deliver")}
        </h3>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="invoiceId" value={detail.invoiceId} />
        <input type="hidden" name="issuance" value={detail.issuance} />
        {paper ? (
          <div className="grid gap-4 md:grid-cols-2">
            <TextField field={fields.courierName} label={t("fields.courierName")} />
            <TextField field={fields.courierNo} label={t("fields.courierNo")} />
          </div>
        ) : (
          <TextField field={fields.deliveryEmail} label={t("fields.deliveryEmail")} type="email" />
        )}
        <SubmitButton intent="deliver" className="btn-primary">
          {t("queue.deliver")}
        </SubmitButton>
      </Form>
    </FormProvider>
  );
}

export default function InvoiceQueue() {
  const { page, filter, detail, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("invoices");
  const filters: StatusFilter[] = ["1", "5", "10", "3", "all"];
  const href = (extra: Record<string, string>) =>
    `?${new URLSearchParams({ status: filter, page: String(page.pageIndex), ...extra })}`;
  return (
    <div className="space-y-4">
      <FilterPills
        label={t("list.filter")}
        links={filters.map((f) => ({
          key: f,
          to: `?status=${f}`,
          current: filter === f,
          label: f === "all" ? t("list.all") : t(`status.${f}`),
        }))}
      />
      <RecordTable
        label={t("list.title")}
        page={page}
        rowKey={(r) => r.invoiceId}
        rowTestId="queue-row"
        rowProps={(r) => ({ "aria-selected": detail?.invoiceId === r.invoiceId })}
        empty={t("queue.empty")}
        emptyTestId="empty"
        columns={[
          {
            header: t("fields.applicationNo"),
            cell: (r) => (
              <Link className="link" to={href({ id: String(r.invoiceId) })}>
                {r.applicationNo}
              </Link>
            ),
          },
          { header: t("fields.applicant"), cell: (r) => r.userName },
          ...applicationColumns<(typeof page.rows)[number]>(t, language),
        ]}
      />
      {detail ? (
        <section aria-labelledby="queue-detail" className="space-y-4 border-t border-slate-200 pt-4">
          <div className="flex items-center justify-between">
            <h2 id="queue-detail" className="text-lg font-semibold">
              {t("detail.heading", { no: detail.applicationNo })}
            </h2>
            <Link to={href({})} className="link text-sm">
              {t("common:actions.close")}
            </Link>
          </div>
          {detail.status === 1 ? <ReviewForms key={`review-${detail.invoiceId}`} detail={detail} /> : null}
          {detail.status === 5 ? <DeliverForm key={`deliver-${detail.invoiceId}`} detail={detail} /> : null}
          <InvoiceDetailView detail={detail} language={language} />
        </section>
      ) : null}
    </div>
  );
}
