import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { PostAdminList } from "#app/components/community/PostAdminList.tsx";
import { postListAction, postListLoader } from "#app/lib/community-ops.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["community"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.opsNews" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("opsNews");

/** Operations: the community's news and events, published or not (docs/decisions/040). */
export const loader = ({ request }: LoaderFunctionArgs) => postListLoader(request, ["news", "event"]);
export const action = ({ request }: ActionFunctionArgs) => postListAction(request);

export default function OpsNews() {
  const { t } = useTranslation();
  return <PostAdminList title={t("titles.opsNews")} />;
}
