import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { accountHref } from "#app/lib/public-chain-urls.ts";
import { apiFor, failureResponse, requireUser } from "#app/lib/api.server.ts";
import { idParam } from "#app/lib/public-chain.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";

/**
 * A custody chain account's key as an encrypted keystore (resource route, no page): a POST with the password
 * (at least 8 characters, checked by the backend) answered with the file. A refused password goes back to
 * the account with the message; another user's or an unknown account is a 404.
 */
/** A GET of the download's address (a bookmark, a reload) leads to the account's page and its form; another user's is a 404. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const accountId = idParam(request, "accountId");
  await apiFor(request, viewer).load("/sys/opc/account/detail", { accountId, gasRange: "5d" });
  return redirect(accountHref(accountId));
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const accountId = idParam(request, "accountId");
  const password = (await request.formData()).get("password");
  const result = await apiFor(request, viewer).call("/sys/opc/account/keystore", {
    accountId,
    password: typeof password === "string" ? password : "",
  });
  if (!result.ok) {
    if (result.status === 404 || result.status >= 500) throw failureResponse(result);
    const key = result.fieldErrors.password?.[0] ?? result.messageKey;
    return redirectWithFlash(request, accountHref(accountId), {
      kind: "error",
      key: key.startsWith("MSG_") ? `errors:${key}` : key,
    });
  }
  return new Response(result.data.keystore, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${result.data.fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "Cache-Control": "no-store",
    },
  });
}
