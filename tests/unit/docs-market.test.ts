import { describe, expect, it } from "vitest";
import { docFormSchema, textIn } from "#contract/docs.ts";
import { parseFunctionLines } from "#contract/market.ts";
import { parentAllowed, snippetOf } from "#backend/domains/docs/rules.ts";
import { tocTree } from "#app/lib/docs.server.ts";

// Issue 15 (docs/decisions/042): the pure rules of the manual and the chaincode market.

describe("the manual's rules", () => {
  it("a missing translation falls back to the other language and says so", () => {
    expect(textIn({ titleEn: "Bills", titleZh: "账单", bodyEn: "b", bodyZh: "z" }, "zh-CN")).toEqual({
      title: "账单",
      body: "z",
      lang: "zh-CN",
      fallback: false,
    });
    expect(textIn({ titleEn: "Bills", titleZh: "", bodyEn: "b", bodyZh: "" }, "zh-CN")).toEqual({
      title: "Bills",
      body: "b",
      lang: "en",
      fallback: true,
    });
    expect(textIn({ titleEn: "", titleZh: "账单", bodyEn: "", bodyZh: "z" }, "en")).toMatchObject({
      lang: "zh-CN",
      fallback: true,
    });
  });

  it.each([
    [{ slug: "faq", titleEn: "FAQ", bodyEn: "x" }, true],
    [{ slug: "faq", titleZh: "问答", bodyZh: "x" }, true],
    [{ slug: "faq", titleEn: "FAQ" }, false],
    [{ slug: "faq", bodyZh: "x" }, false],
    [{ slug: "faq" }, false],
    [{ slug: "Faq", titleEn: "FAQ", bodyEn: "x" }, false],
    [{ slug: "faq--x", titleEn: "FAQ", bodyEn: "x" }, false],
    [{ slug: "faq", parentId: "0", titleEn: "FAQ", bodyEn: "x" }, false],
    [{ slug: "faq", parentId: "12", titleEn: "FAQ", bodyEn: "x" }, true],
  ])("page form %o valid: %s", (form, valid) => {
    expect(docFormSchema.safeParse(form).success).toBe(valid);
  });

  it("a page's parent is neither itself nor one of its sub-pages", () => {
    const parentOf = new Map<number, number | null>([
      [1, null],
      [2, 1],
      [3, 2],
      [4, null],
    ]);
    expect(parentAllowed(1, 4, parentOf)).toBe(true);
    expect(parentAllowed(1, 1, parentOf)).toBe(false);
    expect(parentAllowed(1, 3, parentOf)).toBe(false);
    expect(parentAllowed(null, 3, parentOf)).toBe(true);
    expect(parentAllowed(null, 99, parentOf)).toBe(false);
  });

  it("the table of contents nests pages under their parents, titled in the reader's language", () => {
    const tree = tocTree(
      [
        { docId: 1, slug: "a", parentId: null, position: 1, titleEn: "A", titleZh: "甲" },
        { docId: 2, slug: "b", parentId: 1, position: 1, titleEn: "B", titleZh: "" },
      ],
      "zh-CN",
    );
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ title: "甲", fallback: false });
    expect(tree[0].children[0]).toMatchObject({ title: "B", fallback: true });
  });

  it("a snippet is the text without markup, cut short", () => {
    expect(snippetOf("## Title\n\nSome **bold** [link](http://x) `code`")).toBe("Title Some bold link code");
    expect(snippetOf("x".repeat(500), 10)).toHaveLength(10);
  });
});

describe("the market's function lines", () => {
  it.each([
    ["createAsset | Create an asset", null],
    ['createAsset | Create | ["id"] | {}\nreadAsset | Read', null],
    ["", "market:validation.functionsRequired"],
    ["create asset | Create", "market:validation.functionLine"],
    ["createAsset", "market:validation.functionLine"],
    ["f | A\nf | B", "market:validation.functionDuplicate"],
  ])("%j → %s", (text, problem) => {
    expect(parseFunctionLines(text).problem).toBe(problem);
  });

  it("formats default when left out", () => {
    expect(parseFunctionLines("put | Put").functions).toEqual([
      { func: "put", name: "Put", funcType: 1, inputFormat: "string[]", outputFormat: "bytes" },
    ]);
  });
});
