import type { MetaFunction } from "@remix-run/node";

type RootData = { titles?: Record<string, string>; brand?: string; description?: string };

/**
 * A route's <title>, translated: the root loader sends the page titles of the viewer's language
 * (common.json "titles"), and each route names its own. A page about one object names it first
 * ("Cold-chain traceability · Service details · BSN Portal"): `nameOf` reads it from the route's data.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route's loader data has its own shape
export function pageTitle(key: string, nameOf?: (data: any) => string | null | undefined): MetaFunction {
  return ({ matches, data }) => {
    const root = matches.find((m) => m.id === "root")?.data as RootData | undefined;
    const brand = root?.brand ?? "BSN Portal";
    const title = root?.titles?.[key];
    const name = data && nameOf ? nameOf(data) : null;
    return [
      { title: [name, title, brand].filter(Boolean).join(" · ") },
      ...(root?.description ? [{ name: "description", content: root.description }] : []),
    ];
  };
}
