import type { MetaFunction } from "@remix-run/node";

type RootData = { titles?: Record<string, string>; brand?: string; description?: string };

/**
 * A route's <title>, translated: the root loader sends the page titles of the viewer's language
 * (common.json "titles"), and each route names its own.
 */
export function pageTitle(key: string): MetaFunction {
  return ({ matches }) => {
    const root = matches.find((m) => m.id === "root")?.data as RootData | undefined;
    const brand = root?.brand ?? "BSN Portal";
    const title = root?.titles?.[key];
    return [
      { title: title ? `${title} · ${brand}` : brand },
      ...(root?.description ? [{ name: "description", content: root.description }] : []),
    ];
  };
}
