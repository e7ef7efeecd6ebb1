import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { TextPage } from "#app/components/TextPage.tsx";
import { getViewer } from "#app/lib/api.server.ts";
import { loadLegalPage } from "#app/lib/legal.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["pages", "legal"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("privacy");

/** The text operators saved, else the product's draft marked as not reviewed (docs/decisions/089). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  return json(await loadLegalPage(request, viewer, "privacy"));
}

export default function Page() {
  return <TextPage text={useLoaderData<typeof loader>()} />;
}
