import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { approveInvoiceSchema, deliverInvoiceFormSchema, INVOICE_STATUSES, rejectInvoiceSchema, type InvoiceDetail } from "@contract/invoices";
import { FormErrors, SubmitButton, TextField } from "~/components/forms";
import { Pagination } from "~/components/Pagination";
import { apiFor, requireOperator } from "~/lib/api.server";
import { replyWithFailure } from "~/lib/forms.server";
import { formatDate, formatUsd } from "~/lib/format";
import { pageTitle } from "~/lib/meta";
import { redirectWithFlash } from "~/lib/session.server";
import { badIntent, optionalId, readFailure } from "./g.home.userCenter.Invoices/invoices.server";
import { TextAreaField } from "~/components/forms";
import { InvoiceDetailView, StatusBadge } from "./g.home.userCenter.Invoices/ui";

export const handle = { i18n: ["invoices"], breadcrumb: [{ key: "menu.invoices" }] };
export const meta = pageTitle("invoiceQueue");

const PAGE_SIZE = 10;
type StatusFilter = "all" | "1" | "3" | "5" | "10";

function readQuery(url: URL) {
  const raw = url.searchParams.get("status");
  // The queue opens on what needs a decision: pending review.
  const filter: StatusFilter = raw === "all" || INVOICE_STATUSES.some((s) => String(s) === raw) ? (raw as StatusFilter) : "1";
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  return { filter, page };
}

/** Operations queue of invoice applications (SPEC §6 "Invoices need reviewer approval"; docs/decisions/008). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const { filter, page } = readQuery(url);
  const api = apiFor(request, viewer);
  const list = await api.load("/sys/operations/invoices/list", {
    page: { pageSize: PAGE_SIZE, pageIndex: page, condition: filter === "all" ? {} : { status: Number(filter) as 1 | 3 | 5 | 10 } },
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
  const formData = await request.formData();
  const intent = formData.get("intent");
  const api = apiFor(request, viewer);
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  if (intent === "approve") {
    const submission = parseWithZod(formData, { schema: approveInvoiceSchema });
    if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 400 });
    const result = await api.call("/sys/operations/invoices/approve", submission.value);
    if (!result.ok) return json({ intent, result: replyWithFailure(submission, result) }, { status: 400 });
    return redirectWithFlash(request, back, { kind: "success", key: "invoices:queue.approved" });
  }
  if (intent === "reject") {
    const submission = parseWithZod(formData, { schema: rejectInvoiceSchema });
    if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 400 });
    const result = await api.call("/sys/operations/invoices/reject", submission.value);
    if (!result.ok) return json({ intent, result: replyWithFailure(submission, result) }, { status: 400 });
    return redirectWithFlash(request, back, { kind: "success", key: "invoices:queue.rejected" });
  }
  if (intent === "deliver") {
    const submission = parseWithZod(formData, { schema: deliverInvoiceFormSchema });
    if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 400 });
    const { issuance: _issuance, ...payload } = submission.value;
    const result = await api.call("/sys/operations/invoices/deliver", payload);
    if (!result.ok) return json({ intent, result: replyWithFailure(submission, result) }, { status: 400 });
    return redirectWithFlash(request, back, { kind: "success", key: "invoices:queue.delivered" });
  }
  throw badIntent();
}

/** The reply of the last submission, for the form of that intent only. */
function useReply(intent: string) {
  const actionData = useActionData<typeof action>();
  return actionData?.intent === intent ? actionData.result : undefined;
}

function ReviewForms({ detail }: { detail: InvoiceDetail }) {
  const { t } = useTranslation("invoices");
  const location = useLocation();
  const here = location.pathname + location.search;
  const [approve, approveFields] = useForm({
    id: `approve-${detail.invoiceId}`,
    lastResult: useReply("approve"),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: approveInvoiceSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const [reject, rejectFields] = useForm({
    id: `reject-${detail.invoiceId}`,
    lastResult: useReply("reject"),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: rejectInvoiceSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <FormProvider context={approve.context}>
        <Form method="post" action={here} {...getFormProps(approve)} className="card space-y-3" aria-labelledby="approve-heading">
          <h3 id="approve-heading" className="font-semibold">{t("queue.approve")}</h3>
          <FormErrors id={approve.errorId} errors={approve.errors} />
          <input type="hidden" name="invoiceId" value={detail.invoiceId} />
          <TextAreaField field={approveFields.comments} label={t("queue.approveComments")} rows={2} />
          <SubmitButton intent="approve" className="btn-primary">{t("queue.approve")}</SubmitButton>
        </Form>
      </FormProvider>
      <FormProvider context={reject.context}>
        <Form method="post" action={here} {...getFormProps(reject)} className="card space-y-3" aria-labelledby="reject-heading">
          <h3 id="reject-heading" className="font-semibold">{t("queue.reject")}</h3>
          <FormErrors id={reject.errorId} errors={reject.errors} />
          <input type="hidden" name="invoiceId" value={detail.invoiceId} />
          <TextAreaField field={rejectFields.comments} label={t("queue.rejectComments")} rows={2} />
          <SubmitButton intent="reject" className="btn-danger">{t("queue.reject")}</SubmitButton>
        </Form>
      </FormProvider>
    </div>
  );
}

function DeliverForm({ detail }: { detail: InvoiceDetail }) {
  const { t } = useTranslation("invoices");
  const location = useLocation();
  const paper = detail.issuance === 1;
  const [form, fields] = useForm({
    id: `deliver-${detail.invoiceId}`,
    lastResult: useReply("deliver"),
    defaultValue: { deliveryEmail: detail.recipient.email ?? undefined },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: deliverInvoiceFormSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <FormProvider context={form.context}>
      <Form method="post" action={location.pathname + location.search} {...getFormProps(form)} className="card space-y-3" aria-labelledby="deliver-heading">
        <h3 id="deliver-heading" className="font-semibold">{t("queue.deliver")}</h3>
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
        <SubmitButton intent="deliver" className="btn-primary">{t("queue.deliver")}</SubmitButton>
      </Form>
    </FormProvider>
  );
}

export default function InvoiceQueue() {
  const { page, filter, detail, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("invoices");
  const filters: StatusFilter[] = ["1", "5", "10", "3", "all"];
  const href = (extra: Record<string, string>) => `?${new URLSearchParams({ status: filter, page: String(page.pageIndex), ...extra })}`;
  return (
    <div className="space-y-4">
      <nav aria-label={t("list.filter")} className="flex flex-wrap gap-2 text-sm">
        {filters.map((f) => (
          <Link key={f} to={`?status=${f}`} aria-current={filter === f ? "page" : undefined}
            className={`rounded-full px-3 py-1 ${filter === f ? "bg-brand-600 text-white" : "bg-white text-slate-700 ring-1 ring-slate-200"}`}>
            {f === "all" ? t("list.all") : t(`status.${f}`)}
          </Link>
        ))}
      </nav>
      {page.rows.length === 0 ? (
        <p className="card text-center text-slate-500" data-testid="empty">{t("queue.empty")}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-slate-500">
              <tr>
                <th className="px-4 py-2">{t("fields.applicationNo")}</th>
                <th className="px-4 py-2">{t("fields.applicant")}</th>
                <th className="px-4 py-2">{t("fields.title")}</th>
                <th className="px-4 py-2">{t("fields.invoiceType")}</th>
                <th className="px-4 py-2">{t("fields.issuance")}</th>
                <th className="px-4 py-2 text-right">{t("fields.amount")}</th>
                <th className="px-4 py-2">{t("fields.status")}</th>
                <th className="px-4 py-2">{t("fields.createdAt")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {page.rows.map((r) => (
                <tr key={r.invoiceId} data-testid="queue-row" aria-selected={detail?.invoiceId === r.invoiceId}>
                  <td className="px-4 py-2"><Link className="link" to={href({ id: String(r.invoiceId) })}>{r.applicationNo}</Link></td>
                  <td className="px-4 py-2">{r.userName}</td>
                  <td className="px-4 py-2">{r.title}</td>
                  <td className="px-4 py-2">{t(`invoiceType.${r.invoiceType}`)}</td>
                  <td className="px-4 py-2">{t(`issuance.${r.issuance}`)}</td>
                  <td className="px-4 py-2 text-right">{formatUsd(r.amountCents, language)}</td>
                  <td className="px-4 py-2"><StatusBadge status={r.status} /></td>
                  <td className="px-4 py-2">{formatDate(r.createdAt, language, true)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
      {detail ? (
        <section aria-labelledby="queue-detail" className="space-y-4 border-t border-slate-200 pt-4">
          <div className="flex items-center justify-between">
            <h2 id="queue-detail" className="text-lg font-semibold">{t("detail.heading", { no: detail.applicationNo })}</h2>
            <Link to={href({})} className="link text-sm">{t("common:actions.close")}</Link>
          </div>
          {detail.status === 1 ? <ReviewForms key={`review-${detail.invoiceId}`} detail={detail} /> : null}
          {detail.status === 5 ? <DeliverForm key={`deliver-${detail.invoiceId}`} detail={detail} /> : null}
          <InvoiceDetailView detail={detail} language={language} />
        </section>
      ) : null}
    </div>
  );
}
