import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { PostAdminList } from "#app/components/community/PostAdminList.tsx";
import { postListAction, postListLoader } from "#app/lib/community-ops.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["community"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.opsReleaseNotes" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("opsReleaseNotes");

/** Operations: the community's release notes, published or not (docs/decisions/040). */
export const loader = ({ request }: LoaderFunctionArgs) => postListLoader(request, ["release"]);
export const action = ({ request }: ActionFunctionArgs) => postListAction(request);

export default function OpsReleaseNotes() {
  const { t } = useTranslation();
  return <PostAdminList title={t("titles.opsReleaseNotes")} />;
}
