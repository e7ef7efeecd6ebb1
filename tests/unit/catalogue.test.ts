import { describe, expect, it } from "vitest";
import { CITY_NODES } from "#backend/domains/platform/catalogue.ts";
import { inLanguage } from "#app/components/details.tsx";

// Both languages in the data too (issue 16, docs/decisions/028).
describe("the city-node catalogue", () => {
  it("has every word in Chinese as well as in English", () => {
    const han = /\p{Script=Han}/u;
    for (const node of CITY_NODES) {
      for (const [en, zh] of [
        [node.name, node.nameZh],
        [node.operator, node.operatorZh],
        [node.cloudProvider, node.cloudProviderZh],
        [node.address, node.addressZh],
      ]) {
        expect(en, node.code).not.toMatch(han);
        expect(zh, `${node.code} ${en}`).toMatch(han);
      }
    }
  });

  it("is shown in the reader's language, in English when a word has no Chinese", () => {
    expect(inLanguage("China Mobile", "中国移动", "zh-CN")).toBe("中国移动");
    expect(inLanguage("China Mobile", "中国移动", "en")).toBe("China Mobile");
    expect(inLanguage("China Mobile", null, "zh-CN")).toBe("China Mobile");
  });
});
