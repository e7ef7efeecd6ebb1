import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Msg } from "#contract/messages.ts";

const root = path.resolve(__dirname, "../../locales");
function keys(o: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? keys(v as Record<string, unknown>, `${prefix}${k}.`)
      : [prefix + k],
  );
}
function load(lng: string) {
  const out = new Map<string, Record<string, unknown>>();
  for (const f of readdirSync(path.join(root, lng)).filter((f) => f.endsWith(".json"))) {
    out.set(f, JSON.parse(readFileSync(path.join(root, lng, f), "utf8")));
  }
  return out;
}

describe("both languages are complete", () => {
  const en = load("en");
  const zh = load("zh-CN");
  it("has the same files", () => {
    expect([...zh.keys()].sort()).toEqual([...en.keys()].sort());
  });
  for (const [file, data] of en) {
    it(`${file} has the same keys in zh-CN`, () => {
      expect(keys(zh.get(file) ?? {}).sort()).toEqual(keys(data).sort());
    });
  }
  it("translates every message key of the protocol", () => {
    for (const key of Object.values(Msg)) {
      expect(en.get("errors.json")).toHaveProperty([key]);
      expect(zh.get("errors.json")).toHaveProperty([key]);
    }
  });
  it("translates every validation key the contract uses", () => {
    const contract = ["accounts.ts", "rules.ts", "text.ts"]
      .map((f) => readFileSync(path.resolve(__dirname, "../../contract", f), "utf8"))
      .join("\n");
    const used = new Set([...contract.matchAll(/"(validation\.[A-Za-z.]+)"/g)].map((m) => m[1]));
    expect(used.size).toBeGreaterThan(10);
    const enForms = keys(en.get("forms.json") ?? {});
    for (const key of used) expect(enForms, key).toContain(key);
  });
});

describe("counts use i18next plurals in both languages", () => {
  it("says 'once' in English and the count in Chinese", async () => {
    const { createInstance } = await import("i18next");
    const i18n = createInstance();
    await i18n.init({
      resources: {
        en: { services: load("en").get("services.json")! },
        "zh-CN": { services: load("zh-CN").get("services.json")! },
      },
      lng: "en",
      ns: ["services"],
      defaultNS: "services",
      interpolation: { escapeValue: false },
    });
    expect(i18n.t("detail.useful", { count: 1 })).toBe("Marked useful once");
    expect(i18n.t("detail.useful", { count: 3 })).toBe("Marked useful 3 times");
    expect(i18n.getFixedT("zh-CN")("detail.useful", { count: 1 })).toBe("被标记有用 1 次");
  });
});
