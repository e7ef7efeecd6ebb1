import { TextPage } from "#app/components/TextPage.tsx";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["pages"] };
// A loader of its own, so that the clientLoader only runs on client navigations (Remix hydrates a route's
// clientLoader when the route has no server loader, and would not render it on the server).
export const loader = () => null;
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("privacyStatement");

export default function Page() {
  return <TextPage page="privacyStatement" />;
}
