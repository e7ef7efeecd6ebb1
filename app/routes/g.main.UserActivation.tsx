import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { activateSchema } from "#contract/accounts.ts";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { apiFor, getViewer } from "#app/lib/api.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["auth"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("activation");

/**
 * SPEC §2 UserActivation. The mailed link opens this page with its token; activation itself is a POST
 * (a button), so a mail scanner that follows links cannot use the token up.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return json({
    token: url.searchParams.get("token"),
    sent: url.searchParams.get("sent") === "1",
    email: url.searchParams.get("email"),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await getViewer(request);
  const parsed = activateSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return json({ error: "errors:MSG_20011" }, { status: 400 });
  const result = await apiFor(request, viewer, { portalPage: true }).call("/anon/user/activate", parsed.data);
  if (!result.ok) return json({ error: result.messageKey }, { status: 400 });
  return redirectWithFlash(request, "/g/main/Login/Logins", {
    kind: "success",
    key: "auth:activation.done",
    params: { userName: result.data.userName },
  });
}

export default function UserActivationPage() {
  const { token, sent, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10">
      <div className="card">
        <h1 className="text-2xl font-semibold">{t("activation.title")}</h1>
        {token ? (
          <Form method="post" className="mt-6 space-y-4">
            <FormErrors errors={actionData?.error ? [actionData.error] : undefined} />
            <p className="text-sm text-slate-600">{t("activation.confirm")}</p>
            <input type="hidden" name="token" value={token} />
            <SubmitButton>{t("activation.submit")}</SubmitButton>
          </Form>
        ) : sent ? (
          <div className="mt-4 space-y-3 text-sm text-slate-700" data-testid="activation-sent">
            <p>{t("activation.sent", { email: email ?? "" })}</p>
            <p className="text-slate-500">{t("activation.sentHint")}</p>
          </div>
        ) : (
          <p className="mt-4 text-sm text-slate-600">{t("activation.missing")}</p>
        )}
        <p className="mt-6 text-sm">
          <Link to="/g/main/Login/Logins" className="link">
            {t("activation.toLogin")}
          </Link>
        </p>
      </div>
    </div>
  );
}
