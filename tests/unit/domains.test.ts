import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { paths } from "#contract/paths.ts";
import { domains, endpoints } from "#backend/index.ts";
import template from "#backend/domains/_template/index.ts";

/** The domain list of backend/index.ts (docs/decisions/018): one shape, every path answered exactly once. */
describe("the domains", () => {
  const folders = readdirSync(path.resolve(__dirname, "../../backend/domains")).filter((f) => !f.startsWith("_"));

  it("lists every domain folder once, by its folder's name", () => {
    expect(domains.map((d) => d.name).sort()).toEqual([...folders].sort());
  });

  it("answers every /vueapi path of the contract exactly once", () => {
    const answered = domains.flatMap((d) => [...Object.keys(d.handlers ?? {}), ...Object.keys(d.fixtures ?? {})]);
    expect(answered.filter((p, i) => answered.indexOf(p) !== i)).toEqual([]);
    expect([...answered].sort()).toEqual(Object.keys(paths).sort());
  });

  it("keeps test fixtures on /test/ paths only", () => {
    for (const d of domains) for (const p of Object.keys(d.fixtures ?? {})) expect(p.startsWith("/test/")).toBe(true);
    for (const d of domains) for (const p of Object.keys(d.handlers ?? {})) expect(p.startsWith("/test/")).toBe(false);
  });

  it("gives every job kind one handler and every endpoint its limits", () => {
    const kinds = domains.flatMap((d) => Object.keys(d.jobs ?? {}));
    expect(kinds.filter((k, i) => kinds.indexOf(k) !== i)).toEqual([]);
    for (const e of endpoints) {
      expect(e.path.startsWith("/")).toBe(true);
      expect(e.bodyLimitBytes).toBeGreaterThan(0);
      expect(e.methods.length).toBeGreaterThan(0);
      expect(e.path.startsWith("/vueapi")).toBe(false);
    }
  });
});

/** Issue 27 item 6: a file that grows past this is split (handlers by caller, the rest by concern). */
const MOST_LINES = 400;

describe("the size of the domains' files", () => {
  it(`keeps every .ts file under backend/domains at most ${MOST_LINES} lines`, () => {
    const root = path.resolve(__dirname, "../../backend/domains");
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(100);
    const over = files
      .map((f) => ({ file: `backend/domains/${f.split(path.sep).join("/")}`, lines: lineCount(path.join(root, f)) }))
      .filter((f) => f.lines > MOST_LINES)
      .map((f) => `${f.file}: ${f.lines} lines`)
      .sort();
    expect(over).toEqual([]);
  });
});

/** Lines as `wc -l` counts them: a final newline ends the last line. */
function lineCount(file: string): number {
  const text = readFileSync(file, "utf8");
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

describe("the template domain's rule, by table", () => {
  it.each([
    [0, 3, true],
    [2, 3, true],
    [3, 3, false],
    [-1, 3, false],
    [1.5, 3, false],
  ])("isWithinLimit(%d, %d) is %s", (count, limit, expected) => {
    expect(template.api.isWithinLimit(count, limit)).toBe(expected);
  });
});
