import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, badRequest, failureResponse, notFound, requireUser } from "#app/lib/api.server.ts";
import { positiveParam } from "#app/lib/params.ts";

/**
 * Certificate downloads (resource route, no page): GET a certificate PEM or a key-trust key (encrypted with
 * the certificate password); POST a participant certificate's private key, handed out once (§5; docs/
 * decisions/013). The backend checks ownership and that the participation is approved.
 */
async function download(request: Request, certificateId: number | null, kind: "certificate" | "key") {
  const viewer = await requireUser(request);
  // No such id can exist: the same 404 as an unknown or another user's certificate.
  if (!certificateId) throw notFound();
  const result = await apiFor(request, viewer).call("/sys/chainAppInfo/certificateFile", { certificateId, kind });
  if (!result.ok) throw failureResponse(result);
  return new Response(result.data.pem, {
    headers: {
      "Content-Type": "application/x-pem-file; charset=utf-8",
      "Content-Disposition": `attachment; filename="${result.data.fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "Cache-Control": "no-store",
    },
  });
}

export async function loader({ request }: LoaderFunctionArgs) {
  const q = new URL(request.url).searchParams;
  const kind = q.get("kind");
  if (kind !== "certificate" && kind !== "key") throw badRequest();
  return download(request, positiveParam(q.get("certificateId")), kind);
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  return download(request, positiveParam(String(form.get("certificateId") ?? "")), "key");
}
