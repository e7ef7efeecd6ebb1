import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, notFound, requireUser } from "#app/lib/api.server.ts";
import { prnProjectIdParam } from "#app/lib/dedicated-nodes.server.ts";

/**
 * The CA certificate of a project's network (PEM), as its owner downloads it from PrivatedNodesCheck: what a
 * client trusts to verify the nodes' certificates. Another user's project, or one without a network, is a 404.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const prnProjectId = prnProjectIdParam(request);
  const project = await apiFor(request, viewer).load("/sys/prn/detail", { prnProjectId });
  if (!project.network?.caCertificatePem) throw notFound();
  return new Response(project.network.caCertificatePem, {
    headers: {
      "Content-Type": "application/x-pem-file",
      "Content-Disposition": `attachment; filename="${project.name}-ca.pem"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
