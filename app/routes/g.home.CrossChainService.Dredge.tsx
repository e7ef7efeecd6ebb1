import { FormProvider, getFormProps, getInputProps, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { CrossProtocol, crossDredgeSchema } from "#contract/cross-chain.ts";
import { RadioGroupField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { CROSS_CHAIN_INDEX, selectHref } from "#app/lib/cross-chain-urls.ts";
import { apiFor, notFound, requireUser, type Api } from "#app/lib/api.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { requiredId } from "#app/lib/params.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["crossChain"],
  breadcrumb: [
    { key: "titles.crossChain", to: CROSS_CHAIN_INDEX },
    { key: "titles.crossChainSelect", to: selectHref },
    { key: "titles.crossChainDredge" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("crossChainDredge", (d) => d?.service?.name);

/** One of the caller's running services (SelectService's list), or a 404. */
async function serviceOf(api: Api, appId: number) {
  const service = (await api.load("/sys/crossChain/selectable", {})).find((s) => s.appId === appId);
  if (!service) throw notFound();
  return service;
}

/**
 * SPEC §2 CrossChainService/Dredge (appId): open a running service to cross-chain with one of the two
 * protocols of §9; the second requires an APPCode (§5). The backend re-checks every rule and refuses with its
 * §5/§8 message (upgrading, nodes without the protocol, an unpaid cross-chain bill), shown on the form with
 * what was chosen kept. Submitted, the service waits for an operator's review (3, pending activation).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const appId = requiredId(new URL(request.url), "appId");
  return json({ service: await serviceOf(apiFor(request, viewer), appId) });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const service = await serviceOf(api, requiredId(new URL(request.url), "appId"));
  const formData = await request.formData();
  formData.set("appId", String(service.appId));
  const submission = parseWithZod(formData, { schema: crossDredgeSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await api.call("/sys/crossChain/dredge", {
    ...submission.value,
    appCode: submission.value.protocol === CrossProtocol.APP ? submission.value.appCode : undefined,
  });
  if (!result.ok)
    return json(
      { result: replyWithFailure(submission, result) },
      { status: result.status === 404 ? 404 : formFailureStatus(result) },
    );
  return redirectWithFlash(request, `${CROSS_CHAIN_INDEX}?status=3`, {
    kind: "success",
    key: "crossChain:dredge.done",
    params: { name: service.name },
  });
}

export default function Dredge() {
  const { service } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("crossChain");
  const [form, fields] = useSchemaForm(crossDredgeSchema, actionData?.result, {
    id: "dredge",
    // The protocol and APPCode chosen before (in the publish wizard or an earlier opening) are offered again.
    defaultValue: {
      appId: String(service.appId),
      protocol: service.protocol ? String(service.protocol) : undefined,
      appCode: service.crossAppCode ?? undefined,
    },
  });
  // Without JavaScript the APPCode field is always there (the server checks it for protocol 2 only); with it, only for protocol 2.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const showAppCode = !hydrated || String(fields.protocol.value ?? "") === String(CrossProtocol.APP);
  return (
    <div className="max-w-2xl space-y-4">
      <PageHeader title={t("dredge.title")} />
      <p className="text-sm text-slate-600">{t("dredge.intro", { name: service.name })}</p>
      {!service.canOpen && service.reason ? (
        <p
          className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
          role="status"
          data-testid="why-not"
        >
          {t(`errors:${service.reason}`)}
        </p>
      ) : null}
      <div className="card">
        <FormProvider context={form.context}>
          <Form method="post" {...getFormProps(form)} className="space-y-5">
            <FormErrors id={form.errorId} errors={form.errors} />
            <input {...getInputProps(fields.appId, { type: "hidden" })} key={fields.appId.key} />
            <RadioGroupField
              field={fields.protocol as unknown as FieldMetadata<string | undefined>}
              legend={t("dredge.protocol")}
              options={[CrossProtocol.ENTERPRISE, CrossProtocol.APP].map((p) => ({
                value: String(p),
                label: (
                  <span data-testid={`protocol-${p}`}>
                    <span className="font-medium">{t(`protocols.${p}.name`)}</span>
                    <span className="block text-xs text-slate-600">{t(`protocols.${p}.description`)}</span>
                    {service.protocols.includes(p) ? null : (
                      <span className="block text-xs text-amber-800">{t("dredge.notOnNodes")}</span>
                    )}
                  </span>
                ),
              }))}
            />
            {showAppCode ? (
              <TextField
                field={fields.appCode}
                label={t("dredge.appCode")}
                hint={t("dredge.appCodeHint")}
                autoComplete="off"
              />
            ) : null}
            <div className="flex justify-end gap-2">
              <Link to={selectHref} className="btn-secondary">
                {t("index.cancel")}
              </Link>
              <SubmitButton className="btn-primary">{t("dredge.submit")}</SubmitButton>
            </div>
          </Form>
        </FormProvider>
      </div>
    </div>
  );
}
