import { describe, expect, it } from "vitest";
import { markdownToText, renderMarkdown } from "#app/lib/markdown.server.ts";

describe("operator Markdown (app/lib/markdown.server.ts)", () => {
  it("renders CommonMark and GitHub tables", () => {
    const html = renderMarkdown("# Title\n\nSome **bold** text.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<table>");
    expect(html).toMatch(/<h1[^>]*>Title<\/h1>/);
  });

  it("drops scripts, event handlers and javascript: links", () => {
    const html = renderMarkdown(
      '<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n[click](javascript:alert(1))\n\n<a href="#" onclick="x()">a</a>',
    );
    expect(html).not.toMatch(/<script|onerror|onclick|javascript:/i);
    expect(html).toContain("click");
  });

  it("gives a plain-text summary", () => {
    expect(markdownToText("## Hello [world](https://x.y)\n\n- **one**\n")).toBe("Hello world one");
  });
});
