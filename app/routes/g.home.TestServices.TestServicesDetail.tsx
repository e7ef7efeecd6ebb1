import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { TestServiceStatus } from "#contract/test-services-codes.ts";
import { Field } from "#app/components/details.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { AccessParameters } from "#app/components/test-services/AccessParameters.tsx";
import { ChaincodeConsole } from "#app/components/test-services/ChaincodeConsole.tsx";
import { chaincodeCall } from "#app/lib/test-service-chaincode.server.ts";
import { TestServiceActions } from "#app/components/test-services/Actions.tsx";
import { TestServiceBadge } from "#app/components/test-services/badges.tsx";
import { apiFor, redirectAfter, requireUser } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveId } from "#app/lib/params.ts";
import { requiredId } from "#app/lib/params.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["testServices", "services"],
  breadcrumb: [{ key: "menu.testServices", to: "/g/home/TestServices" }, { key: "titles.testServicesDetail" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("testServicesDetail", (d) => d?.service?.name);

/** SPEC §2 TestServicesDetail (?id=): a test service, its status with the failure's reason and suggestion, its access parameters and actions. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const service = await apiFor(request, viewer).load("/sys/testService/detail", {
    testServiceId: requiredId(url, "id"),
  });
  return json({ service, origin: url.origin, language: viewer.language });
}

const CONFIRMED = ["upgrade", "redeploy", "delete"] as const;

/** Intents: deploy; query and invoke of a Fabric test service's chaincode (docs/decisions/069); upgrade, redeploy and delete confirmed first (without JavaScript the first post answers the confirm step). */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const form = await request.formData();
  const intent = intentOf(form, ["deploy", "query", "invoke", ...CONFIRMED]);
  const testServiceId = positiveId(String(form.get("testServiceId") ?? ""));
  if (!testServiceId) throw json({ messageKey: "errors:http.400" }, { status: 400 });
  if (intent === "query" || intent === "invoke")
    return chaincodeCall(apiFor(request, viewer), { testServiceId, mode: intent, form });
  if (intent !== "deploy" && form.get("confirmed") !== "yes") return json({ confirm: intent });
  const here = `/g/home/TestServices/TestServicesDetail?id=${testServiceId}`;
  if (intent === "upgrade") return redirect(`/g/home/TestServices/TestServicesNew?id=${testServiceId}&upgrade=1`);
  const api = apiFor(request, viewer);
  if (intent === "delete")
    return redirectAfter(
      request,
      await api.call("/sys/testService/delete", { testServiceId }),
      "/g/home/TestServices",
      "testServices:flash.deleted",
      here,
    );
  const result = await api.call(intent === "deploy" ? "/sys/testService/deploy" : "/sys/testService/redeploy", {
    testServiceId,
  });
  return redirectAfter(request, result, here, "testServices:flash.deploying");
}

export default function TestServicesDetail() {
  const { service, origin, language } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const { t } = useTranslation("testServices");
  const revalidator = useRevalidator();
  const deploying = service.status === TestServiceStatus.DEPLOYING;
  // With JavaScript, a deploying service is read again until its job ends; without it, a refresh link.
  useEffect(() => {
    if (!deploying) return;
    const timer = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), 1500);
    return () => clearInterval(timer);
  }, [deploying, revalidator]);
  const here = `/g/home/TestServices/TestServicesDetail?id=${service.testServiceId}`;
  return (
    <div className="space-y-4">
      {reply && "confirm" in reply ? (
        <IntentConfirmStep
          id="confirm-title"
          title={t(`confirm.${reply.confirm}.title`)}
          question={t(`confirm.${reply.confirm}.question`, { name: service.name })}
          intent={reply.confirm}
          fields={{ testServiceId: service.testServiceId }}
          action={here}
          cancelTo={here}
          confirmLabel={t(`actions.${reply.confirm}`)}
          cancelLabel={t("common:actions.cancel")}
          danger={reply.confirm === "delete"}
        />
      ) : null}
      <section className="card space-y-4">
        <PageHeader
          title={
            <>
              {service.name} <span className="text-base font-normal text-slate-600">v{service.version}</span>
            </>
          }
          badges={<TestServiceBadge status={service.status} />}
        />
        <dl className="grid gap-3 sm:grid-cols-4">
          <Field label={t("fields.platform")}>{t(`platforms.${service.platform}`)}</Field>
          <Field label={t("fields.sourceKind")}>{service.packageName ?? t(`sources.${service.sourceKind}`)}</Field>
          <Field label={t("list.deployTime")}>
            {service.deployTime ? formatDate(service.deployTime, language, true) : "—"}
          </Field>
          <Field label={t("fields.contract")}>{service.contractName ?? (service.mainContract || "—")}</Field>
        </dl>
        {deploying ? (
          <p className="text-sm text-slate-700" role="status" data-testid="deploying">
            {t("detail.deploying")}{" "}
            <a href={here} className="underline">
              {t("detail.refresh")}
            </a>
          </p>
        ) : null}
        {service.status === TestServiceStatus.TO_REDEPLOY ? (
          <p className="text-sm text-slate-700" role="status" data-testid="to-redeploy">
            {t("detail.toRedeploy")}
          </p>
        ) : null}
        {service.status === TestServiceStatus.FAILED ? (
          <div className="rounded-md border border-red-200 bg-red-50 p-3" data-testid="failure">
            <p className="font-medium text-red-800">{t("detail.failed")}</p>
            <pre className="mt-1 whitespace-pre-wrap break-words text-xs text-red-900" data-testid="fail-reason">
              {service.failReason}
            </pre>
            {service.suggestion ? (
              <p className="mt-2 text-sm text-slate-800" data-testid="suggestion">
                {t(`suggestion.${service.suggestion}`)}
              </p>
            ) : null}
          </div>
        ) : null}
        <TestServiceActions service={service} />
      </section>
      <AccessParameters service={service} origin={origin} />
      {service.channel && service.status === TestServiceStatus.DEPLOYED ? (
        <ChaincodeConsole service={service} reply={reply && "chaincode" in reply ? reply : null} />
      ) : null}
      <details className="card">
        <summary className="cursor-pointer font-medium">{t("fields.source")}</summary>
        <pre className="mt-2 max-h-96 overflow-auto text-xs" tabIndex={0}>
          {service.source}
        </pre>
      </details>
    </div>
  );
}
