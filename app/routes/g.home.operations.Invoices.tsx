import { FormProvider, getFormProps } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  deliverInvoiceFormSchema,
  INVOICE_STATUS,
  INVOICE_STATUSES,
  invoiceDecisionSchema,
  ISSUANCE,
  type InvoiceDetail,
} from "#contract/invoices.ts";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { FilterPills } from "#app/components/FilterPills.tsx";
import { applicationColumns, InvoiceDetailView } from "#app/components/invoices/application.tsx";
import { RecordTable } from "#app/components/RecordTable.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { optionalId, readFailure } from "#app/lib/invoices.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { approveReject, DecisionForm, type DecisionActionData } from "#app/components/ReviewRow.tsx";
import { decideQueueItem, queueDecision } from "#app/lib/operations-review.server.ts";
import { pageParam } from "#app/lib/params.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["invoices", "payments"], breadcrumb: [{ key: "menu.invoices" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("invoiceQueue");

const PAGE_SIZE = 10;
type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
type StatusFilter = "all" | `${InvoiceStatus}`;
const S = INVOICE_STATUS;
/** The filters in the order of the work: what waits for review, then for delivery, then what is done. */
const FILTERS: StatusFilter[] = [
  `${S.PENDING_REVIEW}`,
  `${S.PENDING_DELIVERY}`,
  `${S.DELIVERED}`,
  `${S.NOT_APPROVED}`,
  "all",
];

function readQuery(url: URL) {
  const raw = url.searchParams.get("status");
  // The queue opens on what needs a decision: pending review.
  const filter: StatusFilter = FILTERS.find((f) => f === raw) ?? `${S.PENDING_REVIEW}`;
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
      condition: filter === "all" ? {} : { status: Number(filter) as InvoiceStatus },
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
    confirm: true,
    decisions: {
      review: queueDecision({
        schema: invoiceDecisionSchema,
        decide: ({ decision, invoiceId, comments }) =>
          decision === "approve"
            ? api.call("/sys/operations/invoices/approve", { invoiceId, comments })
            : api.call("/sys/operations/invoices/reject", { invoiceId, comments: comments ?? "" }),
        flash: (v) => ({ approve: "invoices:queue.approved", reject: "invoices:queue.rejected" })[v.decision],
      }),
      // Delivering has fields of its own (courier or address), validated on both sides; it is not confirmed.
      deliver: queueDecision({
        confirm: false,
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

/** Approve, or reject with comments (required), each confirmed first (docs/decisions/051). */
function ReviewForm({ detail }: { detail: InvoiceDetail }) {
  const { t } = useTranslation("invoices");
  return (
    <section className="card space-y-3" aria-labelledby="review-heading" data-testid="invoice-review">
      <h3 id="review-heading" className="font-semibold">
        {t("queue.review")}
      </h3>
      <DecisionForm
        id={`review-${detail.invoiceId}`}
        intent="review"
        idName="invoiceId"
        idValue={detail.invoiceId}
        subject={detail.applicationNo}
        decisions={approveReject(t, "queue")}
        comments={{ label: t("queue.comments"), hint: t("queue.commentsHint") }}
      />
    </section>
  );
}

function DeliverForm({ detail }: { detail: InvoiceDetail }) {
  const { t } = useTranslation("invoices");
  const location = useLocation();
  const paper = detail.issuance === ISSUANCE.PAPER;
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
  const href = (extra: Record<string, string>) =>
    `?${new URLSearchParams({ status: filter, page: String(page.pageIndex), ...extra })}`;
  return (
    <div className="space-y-4">
      <FilterPills
        label={t("list.filter")}
        links={FILTERS.map((f) => ({
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
          { header: t("fields.applicant"), userContent: true, cell: (r) => r.userName },
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
          {detail.status === S.PENDING_REVIEW ? (
            <ReviewForm key={`review-${detail.invoiceId}`} detail={detail} />
          ) : null}
          {detail.status === S.PENDING_DELIVERY ? (
            <DeliverForm key={`deliver-${detail.invoiceId}`} detail={detail} />
          ) : null}
          <InvoiceDetailView detail={detail} language={language} />
        </section>
      ) : null}
    </div>
  );
}
