import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { PostAdminList } from "#app/components/community/PostAdminList.tsx";
import { postListAction, postListLoader } from "#app/lib/community-ops.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["community"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.opsAnnouncements" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("opsAnnouncements");

/** Operations: the community's announcements, published or not (docs/decisions/040). */
export const loader = ({ request }: LoaderFunctionArgs) => postListLoader(request, ["announcement"]);
export const action = ({ request }: ActionFunctionArgs) => postListAction(request);

export default function OpsAnnouncements() {
  const { t } = useTranslation();
  return <PostAdminList title={t("titles.opsAnnouncements")} />;
}
