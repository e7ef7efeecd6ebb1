import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * docs/spec-map.md and README.md name files and folders in backticks; each must exist, so the map stays true
 * when code moves. A path is a backticked word starting with one of the repository's top folders; `*` matches
 * any characters within one path segment; a trailing `/` asks for a folder. Placeholders (`<name>`) are skipped.
 */
const ROOT = path.resolve(__dirname, "../..");
const TOP = ["app", "backend", "contract", "tests", "e2e", "docs", "locales", "server", "bench", "scripts", "patches"];
const DOCUMENTS = ["docs/spec-map.md", "README.md"];

export function namedPaths(markdown: string): string[] {
  const found = new Set<string>();
  for (const [, text] of markdown.matchAll(/`([^`\s]+)`/g)) {
    const top = text.split("/")[0];
    if (!text.includes("/") || !TOP.includes(top) || text.includes("<")) continue;
    found.add(text);
  }
  return [...found];
}

function segmentPattern(segment: string): RegExp {
  const escaped = segment.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*");
  return new RegExp(`^${escaped}$`);
}

/** Whether `pattern` (relative to the repository, `*` within a segment) names at least one file or folder. */
export function exists(pattern: string, root = ROOT): boolean {
  const folderOnly = pattern.endsWith("/");
  const segments = pattern.replace(/\/+$/, "").split("/");
  let places = [root];
  for (const segment of segments) {
    const next: string[] = [];
    for (const place of places) {
      if (!segment.includes("*")) {
        const candidate = path.join(place, segment);
        if (existsSync(candidate)) next.push(candidate);
        continue;
      }
      if (!existsSync(place) || !statSync(place).isDirectory()) continue;
      const matcher = segmentPattern(segment);
      for (const name of readdirSync(place)) if (matcher.test(name)) next.push(path.join(place, name));
    }
    places = next;
  }
  return places.some((place) => !folderOnly || statSync(place).isDirectory());
}

describe("paths named in the docs", () => {
  it("the matcher: globs within a segment, folders with a trailing slash", () => {
    expect(exists("tests/unit/spec-map.test.ts")).toBe(true);
    expect(exists("tests/unit/spec-map.*.ts")).toBe(true);
    expect(exists("tests/unit/")).toBe(true);
    expect(exists("tests/unit/spec-map.test.ts/")).toBe(false);
    expect(exists("tests/unit/no-such-file.ts")).toBe(false);
    expect(exists("tests/*/no-such-file*.ts")).toBe(false);
    expect(namedPaths("`app/lib/x.ts`, `/chain/rpc`, `backend/domains/<name>/`, `verState`")).toEqual(["app/lib/x.ts"]);
  });

  for (const document of DOCUMENTS) {
    it(`every path in ${document} exists`, () => {
      const named = namedPaths(readFileSync(path.join(ROOT, document), "utf8"));
      expect(named.length).toBeGreaterThan(0);
      expect(named.filter((p) => !exists(p))).toEqual([]);
    });
  }
});
