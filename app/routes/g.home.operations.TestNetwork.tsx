import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { TEST_NETWORK_CONFIRM } from "#contract/test-services.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { Field } from "#app/components/details.tsx";
import { ErrorList } from "#app/components/form-parts.tsx";
import { apiFor, redirectAfter, requireOperator } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["testServices", "services"], breadcrumb: [{ key: "titles.testNetwork" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("testNetwork");

/** Operations: the test network (docs/decisions/034): its chain, height and services, and its reset (typed confirmation, audited). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const network = await apiFor(request, viewer).load("/sys/ops/testNetwork/status", {});
  return json({ network, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const form = await request.formData();
  intentOf(form, ["reset"]);
  const confirmName = String(form.get("confirmName") ?? "");
  // Without JavaScript the first post has no typed name: the page answers with the field to type it in.
  if (form.get("confirmed") !== "yes" || confirmName.trim() !== TEST_NETWORK_CONFIRM)
    return json(
      { typed: confirmName, error: form.get("confirmed") === "yes" ? "validation.nameMismatch" : null },
      { status: form.get("confirmed") === "yes" ? 400 : 200 },
    );
  const result = await apiFor(request, viewer).call("/sys/ops/testNetwork/reset", { confirmName });
  return redirectAfter(request, result, "/g/home/operations/TestNetwork", "testServices:flash.reset");
}

export default function TestNetwork() {
  const { network, language } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const { t } = useTranslation("testServices");
  return (
    <section className="space-y-4">
      <div className="space-y-1">
        <h2 className="text-lg font-semibold">{t("network.title")}</h2>
        <p className="text-sm text-slate-600">{t("network.intro")}</p>
      </div>
      <dl className="card grid gap-3 sm:grid-cols-3" data-testid="test-network">
        <Field label={t("network.chain")}>
          <span className="font-mono">{network.chainName}</span>
        </Field>
        <Field label={t("access.chainId")}>
          <span className="font-mono" data-testid="network-chain-id">
            {network.chainId}
          </span>
        </Field>
        <Field label={t("network.generation")}>{network.generation}</Field>
        <Field label={t("network.height")}>{network.height}</Field>
        <Field label={t("network.services")}>
          {t("network.servicesCount", { services: network.services, deployed: network.deployed })}
        </Field>
        <Field label={t("network.resetAt")}>
          {network.resetAt ? formatDate(network.resetAt, language, true) : "—"}
        </Field>
      </dl>
      {reply ? (
        <Form
          method="post"
          className="card max-w-lg space-y-3"
          role="alertdialog"
          aria-labelledby="reset-step"
          data-testid="confirm-step"
        >
          <h3 id="reset-step" className="font-semibold">
            {t("network.confirmTitle")}
          </h3>
          <p className="text-sm text-slate-700">{t("network.confirmQuestion", { name: TEST_NETWORK_CONFIRM })}</p>
          <label htmlFor="confirm-name" className="label">
            {t("network.typeName", { name: TEST_NETWORK_CONFIRM })}
          </label>
          <input id="confirm-name" name="confirmName" defaultValue={reply.typed} autoComplete="off" className="input" />
          <ErrorList errors={reply.error ? [reply.error] : undefined} />
          <input type="hidden" name="confirmed" value="yes" />
          <button type="submit" name="intent" value="reset" className="btn-danger">
            {t("network.reset")}
          </button>
        </Form>
      ) : (
        <Form method="post" id="reset-network">
          <ConfirmSubmit
            formId="reset-network"
            name="intent"
            value="reset"
            label={t("network.reset")}
            title={t("network.confirmTitle")}
            question={t("network.confirmQuestion", { name: TEST_NETWORK_CONFIRM })}
            confirmLabel={t("network.reset")}
            className="btn-danger"
            typeToConfirm={{ name: TEST_NETWORK_CONFIRM, label: t("network.typeName", { name: TEST_NETWORK_CONFIRM }) }}
          />
        </Form>
      )}
    </section>
  );
}
