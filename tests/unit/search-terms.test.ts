import { describe, expect, it } from "vitest";
import { termsOf } from "#backend/kit/search.ts";

describe("search words (backend/kit/search.ts)", () => {
  it("finds English words, lower-cased, without punctuation", () => {
    expect(termsOf("Publishing a Service: step-by-step!", "en")).toEqual(["publishing", "a", "service", "step", "by"]);
  });

  it("segments Chinese by dictionary and keeps each character of a longer word", () => {
    const terms = termsOf("区块链服务网络的开发者社区", "zh-CN");
    expect(terms).toEqual(expect.arrayContaining(["服务", "网络", "社区", "服", "务", "链"]));
    expect(terms).not.toContain("的的");
  });

  it("a Chinese query splits into words the indexed text also holds", () => {
    const doc = new Set(termsOf("如何发布联盟链服务并邀请参与方", "zh-CN"));
    for (const q of ["发布服务", "联盟链", "参与方", "链"])
      for (const t of termsOf(q, "zh-CN")) expect(doc, `${q} → ${t}`).toContain(t);
  });

  it("normalises full-width letters and reads Latin words inside Chinese text", () => {
    expect(termsOf("ＩＰＦＳ 存储", "zh-CN")).toEqual(expect.arrayContaining(["ipfs", "存储"]));
    const doc = termsOf("使用 IPFS gateway 上传", "zh-CN");
    expect(doc).toEqual(expect.arrayContaining(["ipfs", "gateway"]));
    // However ICU splits a word, the query is split the same way.
    expect(doc).toEqual(expect.arrayContaining(termsOf("上传", "zh-CN")));
  });

  it("a text without words has no terms", () => {
    expect(termsOf(" — !!! … ", "en")).toEqual([]);
  });
});
