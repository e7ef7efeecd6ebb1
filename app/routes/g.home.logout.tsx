import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { apiFor, badRequest, getViewer, requireUser } from "#app/lib/api.server.ts";
import { destroySession, getSession, redirectWithFlash } from "#app/lib/session.server.ts";
import { pageTitle } from "#app/lib/meta.ts";

export const handle = { breadcrumb: [{ key: "logout.title" }] };
export const meta = pageTitle("logout");

/**
 * Without JavaScript, Log Out lands here to confirm (SPEC §2 "Do you want to exit the system?"), and
 * "Log out everywhere" (?scope=everywhere) too: both are POST forms with a named intent.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return json({ everywhere: new URL(request.url).searchParams.get("scope") === "everywhere" });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await getViewer(request);
  const session = await getSession(request);
  if (!viewer.token) return redirect("/g/main/Login/Logins");
  // A form without an intent is the plain Log Out it was before there were two.
  const intent = (await request.formData()).get("intent") ?? "logout";
  const api = apiFor(request, viewer);
  const ended = [await destroySession(session)];
  if (intent === "logout") {
    // The backend revokes the token; whatever it answers, this browser forgets the session.
    await api.call("/main/user/logout", {}).catch(() => undefined);
    return redirectWithFlash(request, "/g/main/Login/Logins", { kind: "success", key: "logout.done" }, ended);
  }
  if (intent === "logoutEverywhere") {
    // Every token of the account is revoked, this one too (docs/decisions/021); a refusal stays on the page.
    const result = await api.call("/main/user/logoutEverywhere", {});
    if (!result.ok)
      return redirectWithFlash(request, "/g/home/logout?scope=everywhere", { kind: "error", key: result.messageKey });
    return redirectWithFlash(
      request,
      "/g/main/Login/Logins",
      { kind: "success", key: "logout.everywhereDone", params: { count: String(result.data.sessions) } },
      ended,
    );
  }
  throw badRequest();
}

export default function LogoutPage() {
  const { everywhere } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div
      className="card mx-auto max-w-md"
      role="alertdialog"
      aria-labelledby="logout-title"
      aria-describedby="logout-question"
    >
      <h1 id="logout-title" className="text-lg font-semibold">
        {t(everywhere ? "logout.everywhereTitle" : "logout.title")}
      </h1>
      <p id="logout-question" className="mt-2 text-slate-600">
        {t(everywhere ? "logout.everywhereQuestion" : "logout.question")}
      </p>
      <Form method="post" className="mt-6 flex justify-end gap-2">
        <Link to="/g/home/index" className="btn-secondary">
          {t("actions.cancel")}
        </Link>
        <button type="submit" name="intent" value={everywhere ? "logoutEverywhere" : "logout"} className="btn-danger">
          {t(everywhere ? "logout.everywhereConfirm" : "logout.confirm")}
        </button>
      </Form>
    </div>
  );
}
