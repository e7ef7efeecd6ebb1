import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { isLanguage } from "#app/lib/i18n.ts";
import { isNamespace, resources } from "#app/lib/resources.server.ts";

/** Translations for the browser (i18next-resources-to-backend, app/entry.client.tsx), from the same files the server renders with. */
export function loader({ params }: LoaderFunctionArgs) {
  const { lng, ns } = params;
  const name = (ns ?? "").replace(/\.json$/, "");
  if (!isLanguage(lng) || !isNamespace(name)) throw new Response("Not found", { status: 404 });
  return json(resources[lng][name], { headers: { "Cache-Control": "public, max-age=300" } });
}
