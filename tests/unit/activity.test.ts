import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ACTIVITY_ACTIONS, ACTIVITY_RULES, type ActivityRule } from "#contract/activity-rules.ts";
import { ACTIVITY_KINDS } from "#contract/activity.ts";
import { paths, type VueapiPath } from "#contract/paths.ts";
import { activityEntry } from "#backend/kit/activity.ts";

/** Team activity's rules (docs/decisions/079): named in both languages, their fields real, details allow-listed. */

const locale = (lng: string) =>
  JSON.parse(readFileSync(path.resolve(__dirname, `../../locales/${lng}/activity.json`), "utf8")) as {
    actions: Record<string, string>;
    kinds: Record<string, string>;
  };

const fieldsOf = (p: string): string[] => {
  const schema = (paths as Record<string, { payload: unknown }>)[p].payload as { shape?: Record<string, unknown> };
  return Object.keys(schema.shape ?? {});
};

describe("team activity's rules", () => {
  it("names every action and kind in both locales, and no action it does not record", () => {
    for (const lng of ["en", "zh-CN"]) {
      const { actions, kinds } = locale(lng);
      expect(Object.keys(actions).sort(), lng).toEqual([...ACTIVITY_ACTIONS].sort());
      expect(Object.keys(kinds).sort(), lng).toEqual([...ACTIVITY_KINDS].sort());
    }
  });

  it("names only fields the path's payload has, and never a secret", () => {
    const wrong: string[] = [];
    for (const [p, rule] of Object.entries(ACTIVITY_RULES as Record<string, ActivityRule>)) {
      if (rule === "none") continue;
      const fields = fieldsOf(p);
      for (const f of [...(rule.detail ?? []), ...(rule.target ? [rule.target] : [])])
        if (
          !fields.includes(f) ||
          /password|secret|^key$|(private|public|api)Key|keystore|pem|card|token|signature$/i.test(f)
        )
          wrong.push(`${p}: ${f}`);
    }
    // A contract call's method signature ("transfer(address,uint256)") is not a key: the one allowed "signature".
    expect(wrong.filter((w) => !/contract\/write: signature|ide\/call: signature/.test(w))).toEqual([]);
  });

  it("classifies every user write path (the type makes it so; this reads the map itself)", () => {
    const unclassified = (Object.keys(paths) as VueapiPath[]).filter((p) => {
      const spec = paths[p] as { auth: string; permission?: string };
      return spec.auth === "user" && spec.permission !== "read" && spec.permission !== "own" && !(p in ACTIVITY_RULES);
    });
    expect(unclassified).toEqual([]);
  });
});

describe("an entry", () => {
  it("keeps only the allow-listed fields, short, and takes the target from the first id-like field", () => {
    const entry = activityEntry({ action: "publicChain.createAccount", detail: ["name", "keyType"] }, "services", {
      projectId: 7,
      name: "x".repeat(300),
      keyType: "secp256k1",
      publicKey: "0xabc",
      idempotencyKey: "k",
    });
    expect(entry.kind).toBe("services");
    expect(entry.targetId).toBe("7");
    expect(Object.keys(entry.details)).toEqual(["name", "keyType"]);
    expect(String(entry.details.name).length).toBeLessThanOrEqual(101);
    expect(JSON.stringify(entry)).not.toContain("0xabc");
  });

  it("is of kind keys when its rule says so, money by a pay permission, and has no target when told", () => {
    expect(activityEntry({ action: "ipfs.key", keys: true }, "services", { ipfsServiceId: 3 })).toMatchObject({
      kind: "keys",
      targetId: "3",
    });
    expect(activityEntry({ action: "bill.pay" }, "pay", { billId: 5, idempotencyKey: "x" }).kind).toBe("money");
    expect(activityEntry({ action: "invoice.apply", target: null }, "pay", { titleId: 1 }).targetId).toBeNull();
    // Objects (a card form, a keystore) never reach the details, even when listed.
    expect(activityEntry({ action: "x", detail: ["form"] }, "services", { form: { cvc: "123" } }).details).toEqual({});
  });
});
