import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS, AUDIT_TARGETS } from "#contract/audit.ts";

/** The audit log's filters and rows name every action and target in words, in both languages (issue 30). */
describe("the audit log's labels", () => {
  for (const lng of ["en", "zh-CN"]) {
    it(`names every action and target in ${lng}`, () => {
      const audit = JSON.parse(readFileSync(path.resolve(__dirname, `../../locales/${lng}/audit.json`), "utf8")) as {
        actions: Record<string, string>;
        targets: Record<string, string>;
      };
      expect(AUDIT_ACTIONS.filter((a) => !audit.actions[a])).toEqual([]);
      expect(AUDIT_TARGETS.filter((a) => !audit.targets[a])).toEqual([]);
    });
  }
});
