import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";

/**
 * An invitation's link (issue 33, docs/decisions/075): signed in (the login page comes first and returns here;
 * a new invitee registers and activates first, as anyone does), the login sees the account and role offered
 * and accepts; then the session acts for that account. A link used, withdrawn, expired or sent to another
 * address says so, and nothing is created.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const result = await apiFor(request, viewer).call("/main/team/invitation", { token });
  return json(
    result.ok ? { token, offer: result.data, refusal: null } : { token, offer: null, refusal: result.messageKey },
    { status: result.ok ? 200 : 409 },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const token = String((await request.formData()).get("token") ?? "");
  const api = apiFor(request, viewer);
  const accepted = await api.call("/main/team/accept", { token });
  const back = `/g/main/team/accept?token=${encodeURIComponent(token)}`;
  if (!accepted.ok) return redirectWithFlash(request, back, { kind: "error", key: accepted.messageKey });
  await api.call("/main/team/switch", { teamAccountId: accepted.data.teamAccountId });
  return redirectWithFlash(request, "/g/home/index", {
    kind: "success",
    key: "common:team.joined",
    params: { name: accepted.data.name },
  });
}

export default function AcceptInvitation() {
  const { token, offer, refusal } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-xl space-y-4 px-4 py-10">
      <PageHeader title={t("team.accept.title")} />
      {offer ? (
        <Form method="post" className="card space-y-3" data-testid="invitation">
          <p>{t("team.accept.offer", { account: offer.accountName, role: t(`team.roles.${offer.role}`) })}</p>
          <input type="hidden" name="token" value={token} />
          <button type="submit" className="btn-primary">
            {t("team.accept.action")}
          </button>
        </Form>
      ) : (
        <div role="alert" className="card space-y-3" data-testid="invitation-refused">
          <p>{t(refusal ?? "errors:MSG_33010")}</p>
          <Link to="/g/home/index" className="btn-secondary">
            {t("notFound.toConsole")}
          </Link>
        </div>
      )}
    </div>
  );
}
