import { FormProvider, getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { moveChainSchema, type ChainOnNode } from "#contract/chain-nodes.ts";
import { ChainsTable, NodesTable } from "#app/components/operations/ChainNodes.tsx";
import { SelectField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

export const handle = { i18n: ["chainNodes"], breadcrumb: [{ key: "titles.chainNodes" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("chainNodes");

const notFound = () => new Response(null, { status: 404 });

/**
 * Operations: the chains on nodes by URL (docs/decisions/094 addendum). Each configured node and each chain with
 * its node, what the node reports and where the mapping comes from; `?move=<chain>` opens the move form, which
 * is the confirmation (what moving means, the chain's name typed). Only when the chains run on nodes by URL: on
 * the embedded engine the page is a 404 (and the backend answers "not found" too).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  if (!getEnv().chainsOnNodes) throw notFound();
  const data = await apiFor(request, viewer).load("/sys/ops/chainNodes/list", {});
  const move = new URL(request.url).searchParams.get("move");
  const moving = move === null ? null : (data.chains.find((c) => c.name === move) ?? null);
  if (move !== null && !moving) throw notFound();
  return json({ ...data, moving, language: viewer.language });
}

/** One intent, `move`: validated here and by the backend; success redirects to the list with a flash. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  if (!getEnv().chainsOnNodes) throw notFound();
  const form = await request.formData();
  intentOf(form, ["move"]);
  const submission = parseWithZod(form, { schema: moveChainSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer).call("/sys/ops/chainNodes/move", submission.value);
  if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: 400 });
  return redirectWithFlash(request, "/g/home/operations/ChainNodes", {
    kind: "success",
    key: "chainNodes:flash.moved",
  });
}

export default function ChainNodes() {
  const { nodes, chains, moving, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("chainNodes");
  return (
    <section className="space-y-6">
      <div className="space-y-1">
        <h2 className="text-lg font-semibold">{t("title")}</h2>
        <p className="text-sm text-slate-600">{t("intro")}</p>
      </div>
      {moving ? <MoveForm chain={moving} nodes={nodes.map((n) => n.url)} /> : null}
      <NodesTable nodes={nodes} />
      <ChainsTable chains={chains} language={language} />
    </section>
  );
}

/** The move's confirmation step: the new node, what moving means, and the chain's name typed. */
function MoveForm({ chain, nodes }: { chain: ChainOnNode; nodes: string[] }) {
  const reply = useActionData<typeof action>();
  const { t } = useTranslation("chainNodes");
  const [form, fields] = useSchemaForm(moveChainSchema, reply?.result, {
    id: `move-${chain.name}`,
    defaultValue: { chain: chain.name },
  });
  const others = nodes.filter((url) => url !== chain.nodeUrl);
  return (
    <FormProvider context={form.context}>
      {/* The confirmation step is the alert dialog; a form element may not take that role (axe aria-allowed-role). */}
      <section
        className="card max-w-2xl border-amber-300"
        role="alertdialog"
        aria-labelledby="move-title"
        aria-describedby="move-warning"
        data-testid="move-chain"
      >
        <Form method="post" {...getFormProps(form)} className="space-y-3">
          <h3 id="move-title" className="font-semibold">
            {t("move.title", { name: chain.name })}
          </h3>
          <p id="move-warning" className="text-sm text-amber-900">
            {t("move.warning", { name: chain.name })}
          </p>
          <p className="text-sm text-slate-700">{t("move.effect")}</p>
          <FormErrors id={form.errorId} errors={form.errors} />
          <input {...getInputProps(fields.chain, { type: "hidden" })} key={fields.chain.key} />
          {others.length === 0 ? (
            <p className="text-sm">{t("move.noOther")}</p>
          ) : (
            <>
              <SelectField
                field={fields.nodeUrl}
                label={t("move.node")}
                placeholder={t("move.choose")}
                options={others.map((url) => ({ value: url, label: url }))}
              />
              <TextField
                field={fields.confirmName}
                label={t("move.confirm", { name: chain.name })}
                autoComplete="off"
              />
            </>
          )}
          <div className="flex gap-2">
            {others.length ? (
              <SubmitButton intent="move" className="btn-danger">
                {t("move.submit")}
              </SubmitButton>
            ) : null}
            <Link to="/g/home/operations/ChainNodes" className="btn-secondary">
              {t("move.cancel")}
            </Link>
          </div>
        </Form>
      </section>
    </FormProvider>
  );
}
