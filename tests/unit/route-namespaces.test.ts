import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The browser has a page's strings before it renders the page (issue 30): each route names the i18next
 * namespaces its page uses in `handle.i18n`, and its clientLoader loads them (app/lib/namespaces.ts). The
 * server renders with every namespace, so a missing name only shows in the browser, after a link is
 * followed. This reads the sources: a namespace used by a route's module or any component it imports
 * (useTranslation("x"), "x:key") is named by the route or one of its layouts.
 */
const ROOT = path.resolve(__dirname, "../..");
const ROUTES = path.join(ROOT, "app/routes");
/** Loaded at start in the browser (app/entry.client.tsx, i18nConfig.ns). */
const ALWAYS = ["common", "errors", "forms"];

const read = (file: string) => readFileSync(file, "utf8");
const isNamespace = (name: string) => existsSync(path.join(ROOT, "locales/en", `${name}.json`));

function resolveImport(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("#app/")) base = path.join(ROOT, "app", spec.slice("#app/".length));
  else if (spec.startsWith(".")) base = path.join(path.dirname(from), spec);
  else return null;
  for (const candidate of [base, `${base}.tsx`, `${base}.ts`]) {
    if (existsSync(candidate) && /\.tsx?$/.test(candidate) && !candidate.endsWith(".server.ts")) return candidate;
  }
  return null;
}

/** The namespaces a module and the browser modules it imports (outside app/routes) translate with. */
function usedNamespaces(file: string, seen = new Set<string>()): Set<string> {
  const out = new Set<string>();
  if (seen.has(file)) return out;
  seen.add(file);
  const text = read(file);
  for (const m of text.matchAll(/useTranslation\(([^)]*)\)/g)) {
    if (!m[1].trim()) out.add("common");
    for (const q of m[1].matchAll(/"([A-Za-z]+)"/g)) out.add(q[1]);
  }
  for (const m of text.matchAll(/["`]([a-zA-Z]+):[a-zA-Z]/g)) if (isNamespace(m[1])) out.add(m[1]);
  for (const m of text.matchAll(/from "([^"]+)"/g)) {
    const next = resolveImport(file, m[1]);
    if (next && !next.startsWith(ROUTES)) for (const ns of usedNamespaces(next, seen)) out.add(ns);
  }
  return out;
}

function declaredNamespaces(text: string): string[] {
  const list = text.match(/i18n:\s*\[([^\]]*)\]/);
  return list ? [...list[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]) : [];
}

const pages = readdirSync(ROUTES)
  .filter((f) => f.endsWith(".tsx"))
  .map((f) => ({ id: f.slice(0, -".tsx".length), file: path.join(ROUTES, f) }));
const byId = new Map(pages.map((p) => [p.id, p.file]));

/** The route's own namespaces and its layouts' (flat routes: a dotted prefix, not past a `_`-escaped segment). */
function namedFor(id: string): Set<string> {
  const named = new Set([...ALWAYS, ...declaredNamespaces(read(byId.get(id)!))]);
  const parts = id.split(".");
  for (let i = parts.length - 1; i > 0; i--) {
    if (parts[i - 1].endsWith("_")) break;
    const layout = byId.get(parts.slice(0, i).join("."));
    if (layout) for (const ns of declaredNamespaces(read(layout))) named.add(ns);
  }
  return named;
}

describe("the namespaces of the route modules", () => {
  it("names every namespace a page translates with in the route or its layouts", () => {
    expect(pages.length).toBeGreaterThan(100);
    const missing = pages.flatMap(({ id, file }) => {
      const named = namedFor(id);
      const absent = [...usedNamespaces(file)].filter((ns) => !named.has(ns));
      return absent.length ? [`${id}: ${absent.sort().join(", ")}`] : [];
    });
    expect(missing).toEqual([]);
  });

  it("loads a route's namespaces in its clientLoader, and gives it a server loader", () => {
    const without = pages
      .filter(({ file }) => declaredNamespaces(read(file)).length > 0)
      .filter(({ file }) => {
        const text = read(file);
        const loads = /export const clientLoader = withNamespaces\(handle\);/.test(text);
        const hasLoader = /export (async )?function loader\b|export const loader\b/.test(text);
        return !loads || !hasLoader;
      })
      .map(({ id }) => id);
    expect(without).toEqual([]);
  });

  it("finds a namespace a component uses and its route does not name (the check itself can fail)", () => {
    const ddc = pages.find((p) => p.id === "g.home.DDC._index")!;
    expect(usedNamespaces(ddc.file).has("ddc")).toBe(true);
    expect(declaredNamespaces('export const handle = { i18n: ["a", "b"] };')).toEqual(["a", "b"]);
    expect(namedFor("g.home.DDC._index").has("home")).toBe(true);
    expect(namedFor("g.home.PermissionedServices.PublishedServices_.NewServices").has("wizard")).toBe(true);
  });
});
