import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { apiFor, redirectAfter, requireOperator } from "#app/lib/api.server.ts";
import { intentOf, parseFormOr400 } from "#app/lib/intents.server.ts";
import { inLanguage } from "#app/lib/i18n.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveParam } from "#app/lib/params.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["community"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.opsPartners" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("opsPartners");

/** Operations: the partners of serviceNetworkLeague in their order; edit, delete (confirmed). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const partners = await apiFor(request, viewer).load("/sys/ops/community/partners", {});
  const rows = partners.map((p) => ({ ...p, name: inLanguage(p.nameEn || p.nameZh, p.nameZh, viewer.language) }));
  const confirmId = positiveParam(new URL(request.url).searchParams.get("confirm"));
  const confirm = rows.find((p) => p.partnerId === confirmId) ?? null;
  return json({ rows, confirm: confirm ? { partnerId: confirm.partnerId, name: confirm.name } : null });
}

const partnerAction = z.object({
  partnerId: z.coerce.number().int().positive(),
  confirmed: z.literal("yes").optional(),
});

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const formData = await request.formData();
  intentOf(formData, ["delete"]);
  const v = parseFormOr400(partnerAction, formData);
  if (v.confirmed !== "yes") return redirect(`/g/home/operations/Partners?confirm=${v.partnerId}`);
  return redirectAfter(
    request,
    await apiFor(request, viewer).call("/sys/ops/community/deletePartner", { partnerId: v.partnerId }),
    "/g/home/operations/Partners",
    "community:ops.deleted",
  );
}

export default function OpsPartners() {
  const { rows, confirm } = useLoaderData<typeof loader>();
  const { t } = useTranslation("community");
  const here = useLocation().pathname;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{t("partners.opsTitle")}</h2>
        <Link to="/g/home/operations/PartnerEdit" className="btn-primary">
          {t("partners.new")}
        </Link>
      </div>
      {confirm ? (
        <IntentConfirmStep
          id="delete-partner-title"
          title={t("partners.deleteTitle")}
          question={t("partners.deleteQuestion", { name: confirm.name })}
          intent="delete"
          fields={{ partnerId: confirm.partnerId }}
          action={here}
          cancelTo={here}
          confirmLabel={t("ops.delete")}
          cancelLabel={t("ops.cancel")}
          danger
        />
      ) : null}
      {rows.length === 0 ? (
        <EmptyState message={t("partners.empty")} />
      ) : (
        <ul className="space-y-3">
          {rows.map((p) => {
            const formId = `partner-${p.partnerId}`;
            return (
              <li
                key={p.partnerId}
                className="card flex flex-wrap items-center justify-between gap-3"
                data-testid="ops-partner"
              >
                <div className="flex items-center gap-3">
                  {p.hasLogo ? (
                    <img
                      src={`/g/main/partnerLogo?id=${p.partnerId}`}
                      alt=""
                      width={40}
                      height={40}
                      className="h-10 w-10 rounded object-contain"
                    />
                  ) : null}
                  <div>
                    <h3 className="font-semibold">{p.name}</h3>
                    <p className="text-xs text-slate-600">
                      {t("partners.order")}: {p.sortOrder}
                      {p.link ? ` · ${p.link}` : ""}
                    </p>
                  </div>
                </div>
                <Form method="post" id={formId} action={here} className="flex gap-2">
                  <input type="hidden" name="partnerId" value={p.partnerId} />
                  <Link
                    to={`/g/home/operations/PartnerEdit?partnerId=${p.partnerId}`}
                    className="btn-secondary text-sm"
                  >
                    {t("ops.editAction")}
                  </Link>
                  <ConfirmSubmit
                    formId={formId}
                    name="intent"
                    value="delete"
                    label={t("ops.delete")}
                    title={t("partners.deleteTitle")}
                    question={t("partners.deleteQuestion", { name: p.name })}
                    confirmLabel={t("ops.delete")}
                    className="btn-danger text-sm"
                  />
                </Form>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
