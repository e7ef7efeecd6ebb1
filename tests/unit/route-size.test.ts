import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Route modules stay thin (ARCHITECTURE.md, issue 27): loader, action, meta and a default export that renders
 * the page's body from `app/components/<domain>/`. A route file that grows past this is split.
 */
const MOST_LINES = 250;

/** Lines as `wc -l` counts them: a final newline ends the last line. */
function lineCount(file: string): number {
  const text = readFileSync(file, "utf8");
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** The .ts and .tsx files under `root` longer than `most` lines, as "name: N lines", sorted. */
function overLong(root: string, most: number): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => ({ file: f.split(path.sep).join("/"), lines: lineCount(path.join(root, f)) }))
    .filter((f) => f.lines > most)
    .map((f) => `${f.file}: ${f.lines} lines`)
    .sort();
}

describe("the size of the route modules", () => {
  it(`keeps every file under app/routes at most ${MOST_LINES} lines`, () => {
    const root = path.resolve(__dirname, "../../app/routes");
    expect(readdirSync(root).length).toBeGreaterThan(100);
    expect(overLong(root, MOST_LINES)).toEqual([]);
  });

  it("names a file one line over the limit, and not one at it (the check itself can fail)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "route-size-"));
    try {
      const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const x${i} = ${i};\n`).join("");
      writeFileSync(path.join(dir, "g.home.At.tsx"), lines(MOST_LINES));
      writeFileSync(path.join(dir, "g.home.Over.tsx"), lines(MOST_LINES + 1));
      writeFileSync(path.join(dir, "g.home.OverFile.ts"), `${lines(MOST_LINES)}export const last = 1;`);
      writeFileSync(path.join(dir, "notes.md"), lines(MOST_LINES + 10));
      expect(overLong(dir, MOST_LINES)).toEqual([
        `g.home.Over.tsx: ${MOST_LINES + 1} lines`,
        `g.home.OverFile.ts: ${MOST_LINES + 1} lines`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
