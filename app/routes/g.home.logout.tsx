import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { apiFor, getViewer, requireUser } from "~/lib/api.server";
import { destroySession, getSession, redirectWithFlash } from "~/lib/session.server";
import { pageTitle } from "~/lib/meta";

export const handle = { breadcrumb: [{ key: "logout.title" }] };
export const meta = pageTitle("logout");

/** Without JavaScript, Log Out lands here to confirm (SPEC §2 "Do you want to exit the system?"). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await getViewer(request);
  const session = await getSession(request);
  if (!viewer.token) return redirect("/g/main/Login/Logins");
  // The backend revokes the token; whatever it answers, this browser forgets the session.
  await apiFor(request, viewer).call("/main/user/logout", {}).catch(() => undefined);
  return redirectWithFlash(request, "/g/main/Login/Logins", { kind: "success", key: "logout.done" }, [await destroySession(session)]);
}

export default function LogoutPage() {
  const { t } = useTranslation();
  return (
    <div className="card mx-auto max-w-md" role="alertdialog" aria-labelledby="logout-title" aria-describedby="logout-question">
      <h1 id="logout-title" className="text-lg font-semibold">{t("logout.title")}</h1>
      <p id="logout-question" className="mt-2 text-slate-600">{t("logout.question")}</p>
      <Form method="post" className="mt-6 flex justify-end gap-2">
        <Link to="/g/home/index" className="btn-secondary">{t("actions.cancel")}</Link>
        <button type="submit" className="btn-danger">{t("logout.confirm")}</button>
      </Form>
    </div>
  );
}
