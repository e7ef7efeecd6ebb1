import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { certificationMachine, certificationReviewSchema } from "#contract/certification.ts";
import { CertificationQueue } from "#app/components/operations/CertificationQueue.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";
import { decideQueueItem, queueDecision, queueStatus } from "#app/lib/operations-review.server.ts";
import { pageParam } from "#app/lib/params.ts";

export const handle = {
  i18n: ["profile", "payments"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.certificationReviews" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("certificationReviews");

/** Operations: enterprise certifications waiting for review (docs/decisions/071), or every enterprise account. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const status = queueStatus(url);
  const data = await apiFor(request, viewer).load("/sys/ops/certifications/list", {
    pageIndex: pageParam(url),
    pageSize: 10,
    status,
  });
  return json({ ...data, status, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const api = apiFor(request, viewer);
  return decideQueueItem(request, {
    idName: "userId",
    confirm: true,
    machine: certificationMachine,
    decisions: {
      review: queueDecision({
        schema: certificationReviewSchema,
        decide: (v) => api.call("/sys/ops/certifications/review", v),
        flash: (v) =>
          ({ approve: "profile:certification.ops.approved", reject: "profile:certification.ops.rejected" })[v.decision],
      }),
    },
  });
}

export default function CertificationReviews() {
  const { page, status, language } = useLoaderData<typeof loader>();
  return <CertificationQueue page={page} status={status} language={language} />;
}
