import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AUDIT_ACTIONS, AUDIT_TARGETS } from "#contract/audit.ts";
import { AUDIT_RULES } from "#contract/audit-rules.ts";
import { paths } from "#contract/paths.ts";

/** Every decision an audit entry can carry: a rule's fixed one, else every value of its payload's `decision` enum. */
function auditDecisions(): string[] {
  const found = new Set<string>();
  for (const [p, rule] of Object.entries(AUDIT_RULES)) {
    if (typeof rule !== "object") continue;
    if ("decision" in rule && rule.decision) {
      found.add(rule.decision);
      continue;
    }
    const payload = (paths as Record<string, { payload: z.ZodType }>)[p]!.payload;
    const field = payload instanceof z.ZodObject ? (payload.shape as Record<string, z.ZodType>).decision : undefined;
    if (field instanceof z.ZodEnum) for (const v of field.options as string[]) found.add(v);
  }
  return [...found].sort();
}

/** The audit log's filters and rows name every action, target and decision in words, in both languages (issue 30). */
describe("the audit log's labels", () => {
  it("finds the decisions of the rules and of their payloads", () => {
    expect(auditDecisions()).toEqual(expect.arrayContaining(["unpublish", "approve", "suspend", "retry"]));
  });
  for (const lng of ["en", "zh-CN"]) {
    it(`names every action, target and decision in ${lng}`, () => {
      const audit = JSON.parse(readFileSync(path.resolve(__dirname, `../../locales/${lng}/audit.json`), "utf8")) as {
        actions: Record<string, string>;
        targets: Record<string, string>;
        decisions: Record<string, string>;
      };
      expect(AUDIT_ACTIONS.filter((a) => !audit.actions[a])).toEqual([]);
      expect(AUDIT_TARGETS.filter((a) => !audit.targets[a])).toEqual([]);
      expect(auditDecisions().filter((d) => !audit.decisions[d])).toEqual([]);
    });
  }
});
