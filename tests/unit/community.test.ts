import { xml2js, type Element } from "xml-js";
import { describe, expect, it } from "vitest";
import { isActiveAt, localTimeOf, localTimeToDate, pickLanguage, pickText, type Post } from "#contract/community.ts";
import { postFormSchema } from "#contract/community.ts";
import { seatsLeft, signupRefusal } from "#backend/domains/community/rules.ts";
import { buildFeed } from "#app/lib/community.server.ts";

// Issue 15 (docs/decisions/040): the pure rules of the community's content and its feeds.

const item = (en: string, zh: string) => ({
  titleEn: en,
  titleZh: zh,
  bodyEn: en ? `${en} body` : "",
  bodyZh: zh ? `${zh} 正文` : "",
});

describe("a missing translation falls back visibly", () => {
  it.each([
    ["en", item("Hello", "你好"), "Hello", null],
    ["zh-CN", item("Hello", "你好"), "你好", null],
    ["zh-CN", item("Hello", ""), "Hello", "en"],
    ["en", item("", "你好"), "你好", "zh-CN"],
  ] as const)("%s reader of %o sees %s (fallback %s)", (lang, post, title, fallback) => {
    expect(pickLanguage(post, lang)).toMatchObject({ title, fallback });
  });
  it("names and descriptions fall back the same way", () => {
    expect(pickText("", "第一", "en")).toEqual({ text: "第一", fallback: "zh-CN" });
    expect(pickText("First", "第一", "zh-CN")).toEqual({ text: "第一", fallback: null });
  });
});

describe("times of the operators' forms are UTC+8", () => {
  it("round-trips and refuses impossible times", () => {
    expect(localTimeToDate("2026-12-01T14:00")?.toISOString()).toBe("2026-12-01T06:00:00.000Z");
    expect(localTimeOf("2026-12-01T06:00:00.000Z")).toBe("2026-12-01T14:00");
    expect(localTimeToDate("2026-02-30T10:00")).toBeNull();
    expect(localTimeToDate("2026-12-01 14:00")).toBeNull();
  });
});

describe("sign-up rules", () => {
  const now = new Date("2026-12-01T00:00:00Z");
  const later = new Date("2026-12-05T00:00:00Z");
  const base = { now, deadline: later, startsAt: new Date("2026-12-06T00:00:00Z"), capacity: 2, taken: 0, mine: false };
  it.each([
    [{}, null],
    [{ mine: true }, "already"],
    [{ mine: true, taken: 2 }, "already"],
    [{ taken: 2 }, "full"],
    [{ taken: 1 }, null],
    [{ now: new Date(later.getTime() + 1) }, "closed"],
    [{ now: later }, null],
    [{ deadline: null }, "closed"],
    [{ startsAt: now }, "closed"],
    [{ capacity: null }, "full"],
  ] as const)("%o → %s", (change, refusal) => {
    expect(signupRefusal({ ...base, ...change })).toBe(refusal);
  });
  it("counts seats left, never below zero", () => {
    expect(seatsLeft(5, 2)).toBe(3);
    expect(seatsLeft(2, 3)).toBe(0);
  });
});

describe("announcement windows", () => {
  const w = { activeFrom: "2026-12-01T00:00:00Z", activeTo: "2026-12-02T00:00:00Z" };
  it.each([
    ["2026-11-30T23:59:59Z", false],
    ["2026-12-01T00:00:00Z", true],
    ["2026-12-01T23:59:59Z", true],
    ["2026-12-02T00:00:00Z", false],
  ])("at %s: %s", (at, active) => expect(isActiveAt(w, new Date(at))).toBe(active));
});

describe("the operators' post form", () => {
  it("asks an event for its time, seats and a deadline not after its start", () => {
    const r = postFormSchema.safeParse({
      kind: "event",
      titleEn: "Meetup",
      startsAt: "2026-12-01T10:00",
      signupDeadline: "2026-12-02T10:00",
    });
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["capacity", "signupDeadline"]));
  });
  it("takes a news item with one language only", () => {
    expect(postFormSchema.safeParse({ kind: "news", titleZh: "新闻" }).success).toBe(true);
  });
});

describe("feeds", () => {
  const post = (id: number, en: string, zh: string, body = "**bold** <script>alert(1)</script>"): Post => ({
    postId: id,
    kind: "news",
    titleEn: en,
    titleZh: zh,
    bodyEn: body,
    bodyZh: zh ? "中文 **正文**" : "",
    published: true,
    publishedAt: `2026-11-2${id}T00:00:00.000Z`,
    createdAt: "2026-11-20T00:00:00.000Z",
    updatedAt: "2026-11-20T00:00:00.000Z",
    startsAt: null,
    location: "",
    capacity: null,
    signupDeadline: null,
    signups: 0,
    version: "",
    activeFrom: null,
    activeTo: null,
  });
  /** The element names and texts of a document; xml-js (sax, strict) throws on XML that is not well-formed. */
  const parse = (xml: string) => {
    const names: string[] = [];
    const texts: string[] = [];
    const walk = (e: Element) => {
      if (e.type === "element" && e.name) names.push(e.name);
      if (e.type === "text" || e.type === "cdata") texts.push(String(e.text ?? e.cdata ?? ""));
      for (const c of e.elements ?? []) walk(c);
    };
    walk(xml2js(xml, { compact: false }) as Element);
    return { names, text: texts.join(" ") };
  };
  it.each(["rss", "atom"] as const)("makes well-formed %s in both languages with sanitised content", (format) => {
    const posts = [post(2, "Second", "第二"), post(1, "Only English", "")];
    const en = parse(buildFeed("news", posts, "en", format, "https://portal.example"));
    expect(en.names.filter((n) => n === (format === "rss" ? "item" : "entry"))).toHaveLength(2);
    expect(en.text).toContain("Second");
    expect(en.text).toContain("News_EventsDetail?eventId=2");
    expect(en.text).not.toContain("<script>");
    const zh = parse(buildFeed("news", posts, "zh-CN", format, "https://portal.example"));
    expect(zh.text).toContain("第二");
    expect(zh.text).toContain("Only English");
    expect(zh.text).toContain("BSN 新闻与活动");
  });
  it.each(["rss", "atom"] as const)(
    "escapes an operator's markup in %s titles and summaries, which readers take as HTML",
    (format) => {
      const hostile = post(3, `<img src=x onerror=alert(1)> ]]> & "T"`, "");
      const xml = buildFeed("news", [{ ...hostile, bodyEn: "<b>bold</b> & more" }], "en", format, "https://p.example");
      const { text } = parse(xml);
      // Once the XML is read, the title and summary still hold entities: a reader rendering HTML shows the text.
      expect(text).toContain("&lt;img src=x onerror=alert(1)&gt; ]]&gt; &amp; &quot;T&quot;");
      expect(text).not.toContain("<img");
      expect(text).not.toContain("<b>");
    },
  );
});
