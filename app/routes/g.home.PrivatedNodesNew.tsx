import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { prnCreateSchema, prnQuotePayloadSchema } from "#contract/dedicated-nodes.ts";
import { CreateForm, type Quote } from "#app/components/dedicated-nodes/CreateForm.tsx";
import { PRN, checkHref } from "#app/lib/dedicated-nodes-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { newIdempotencyKey } from "#app/lib/payments.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { requireNoUnpaidBills, unlessRefusedForBills } from "#app/lib/unpaid-guard.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["dedicatedNodes", "dedicatedNodeRules", "services"],
  breadcrumb: [{ key: "titles.privatedNodes", to: PRN }, { key: "titles.privatedNodesNew" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("privatedNodesNew");

/** A price asked while typing changes nothing: the page's data is not read again. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === "quote" ? false : defaultShouldRevalidate;

/**
 * A new dedicated-node project (SPEC §2 PrivatedNodesNew, §3, §5 "Dedicated node", §9): the form, the price per
 * month and per year shown before paying ("Show the price" without JavaScript, live with it), and the first
 * period paid from the balance. Unpaid dedicated-node bills block the page (§6, h5isHasNoPayBillV2 payType 2)
 * with the blocked-action pattern; the backend checks every rule again (name taken, free peers of the region).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  await requireNoUnpaidBills(request, viewer, "dedicatedNode");
  const api = apiFor(request, viewer);
  const [options, account] = await Promise.all([
    api.load("/sys/prn/options", {}),
    api.load("/sys/account/summary", {}),
  ]);
  return json({
    options,
    balanceCents: account.balanceCents,
    idempotencyKey: newIdempotencyKey(),
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  await requireNoUnpaidBills(request, viewer, "dedicatedNode");
  const formData = await request.formData();
  const api = apiFor(request, viewer);
  if (intentOf(formData, ["quote", "create"]) === "quote") {
    // The price only: the other fields are kept as typed (the reply carries every field back), unchecked.
    const submission = parseWithZod(formData, { schema: prnQuotePayloadSchema });
    if (submission.status !== "success")
      return json({ result: submission.reply(), quote: null as Quote | null }, { status: 400 });
    const result = await api.call("/sys/prn/quote", submission.value);
    if (!result.ok)
      return json(
        { result: replyWithFailure(submission, result), quote: null as Quote | null },
        { status: formFailureStatus(result) },
      );
    return json({ result: submission.reply(), quote: result.data as Quote | null });
  }
  const submission = parseWithZod(formData, { schema: prnCreateSchema });
  if (submission.status !== "success")
    return json({ result: submission.reply(), quote: null as Quote | null }, { status: 400 });
  const result = await unlessRefusedForBills(
    request,
    await api.call("/sys/prn/create", submission.value),
    "dedicatedNode",
  );
  if (!result.ok)
    return json(
      { result: replyWithFailure(submission, result), quote: null as Quote | null },
      { status: formFailureStatus(result) },
    );
  return redirectWithFlash(request, checkHref(result.data.prnProjectId), {
    kind: "success",
    key: "dedicatedNodes:create.done",
    params: { name: result.data.name, billNo: result.data.billNo ?? "" },
  });
}

export default function NewDedicatedNodeProject() {
  const { options, balanceCents, idempotencyKey, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("dedicatedNodes");
  return (
    <div className="max-w-3xl space-y-4">
      <PageHeader title={t("create.title")} />
      <p className="text-sm text-slate-600">{t("create.intro")}</p>
      <div className="card">
        <CreateForm
          options={options}
          lastResult={actionData?.result}
          quote={actionData?.quote ?? null}
          balanceCents={balanceCents}
          idempotencyKey={idempotencyKey}
          language={language}
        />
      </div>
    </div>
  );
}
