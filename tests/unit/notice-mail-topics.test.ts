import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAIL_TOPICS, NOT_MAILED, TOPIC_ROLES } from "#backend/domains/inbox/mail.ts";

/**
 * Mails by role (issue 33, docs/decisions/085): every Message Center text is either mailed, with its topic, or listed
 * with the reason it is not; a new message cannot be left out by forgetting it.
 */
const ROOT = path.resolve(__dirname, "../..");
const keysOf = (lng: string) => {
  const { messages } = JSON.parse(readFileSync(path.join(ROOT, "locales", lng, "messages.json"), "utf8"));
  const flat = (node: Record<string, unknown>, at: string): string[] =>
    Object.entries(node).flatMap(([k, v]) =>
      typeof v === "string" ? [`${at}.${k}`] : flat(v as Record<string, unknown>, `${at}.${k}`),
    );
  return flat(messages, "messages").sort();
};

describe("which messages are mailed", () => {
  it("classifies every message of both languages once, and nothing else", () => {
    const mailed = Object.keys(MAIL_TOPICS);
    const not = Object.keys(NOT_MAILED);
    expect(mailed.filter((k) => not.includes(k))).toEqual([]);
    const classified = [...mailed, ...not].sort();
    expect(classified).toEqual(keysOf("en"));
    expect(classified).toEqual(keysOf("zh-CN"));
  });

  it("money goes to the owner and finance, services to the owner, admins and developers (issue 33)", () => {
    expect(TOPIC_ROLES).toEqual({ money: ["owner", "finance"], services: ["owner", "admin", "developer"] });
    expect(MAIL_TOPICS["messages.billPaid"]).toBe("money");
    expect(MAIL_TOPICS["messages.service.deploySuccess"]).toBe("services");
  });
});
