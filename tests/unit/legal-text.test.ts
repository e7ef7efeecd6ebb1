import { describe, expect, it } from "vitest";
import { sectionsOf, textOf } from "#contract/legal-codes.ts";

// The text operators write for a legal or contact page (docs/decisions/089): "## " starts a section, an empty line
// a paragraph; the shipped drafts' sections come back from their text unchanged.
describe("legal page text", () => {
  it.each([
    ["", []],
    ["One line.", [{ heading: "", body: ["One line."] }]],
    [
      "Intro\nwraps.\n\n## Data\n\nA.\n\n\nB.",
      [
        { heading: "", body: ["Intro wraps."] },
        { heading: "Data", body: ["A.", "B."] },
      ],
    ],
    [
      "## 数据\r\n\r\n您的用户名。\r\n## 权利",
      [
        { heading: "数据", body: ["您的用户名。"] },
        { heading: "权利", body: [] },
      ],
    ],
    ["##no space is text", [{ heading: "", body: ["##no space is text"] }]],
  ])("%j", (text, sections) => {
    expect(sectionsOf(text)).toEqual(sections);
  });

  it("round-trips sections through their text", () => {
    const sections = [
      { heading: "Data", body: ["Your username.", "Your bills."] },
      { heading: "Rights", body: ["Ask support."] },
    ];
    expect(sectionsOf(textOf(sections))).toEqual(sections);
  });
});
