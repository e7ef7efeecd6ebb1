import { describe, expect, it } from "vitest";
import { BLOCKED_ACTIONS, blockedHomeHref, isBlockedAction, safeReturnTo } from "#app/lib/blocked.ts";
import { pageItems, pageSizeParam, pagingOf } from "#app/lib/paging.ts";
import { messageHref } from "#app/lib/message-links.ts";
import { MESSAGE_REF_KINDS } from "#contract/platform.ts";

describe("pageItems: page links with ellipses (issue 16)", () => {
  it.each([
    [1, 1, [1]],
    [1, 0, [1]],
    [2, 3, [1, 2, 3]],
    [1, 5, [1, 2, "gap", 5]],
    [3, 5, [1, 2, 3, 4, 5]],
    [1, 10, [1, 2, "gap", 10]],
    [4, 10, [1, 2, 3, 4, 5, "gap", 10]],
    [5, 10, [1, "gap", 4, 5, 6, "gap", 10]],
    [10, 10, [1, "gap", 9, 10]],
    [7, 10, [1, "gap", 6, 7, 8, 9, 10]],
    [99, 10, [1, "gap", 9, 10]],
    [-3, 10, [1, 2, "gap", 10]],
  ] as const)("page %i of %i", (current, pages, expected) => {
    expect(pageItems(current, pages)).toEqual(expected);
  });

  it("never hides a single page behind an ellipsis, lists each page once, in order, and keeps the first, last and current", () => {
    for (let pages = 1; pages <= 30; pages++) {
      for (let current = 1; current <= pages; current++) {
        const items = pageItems(current, pages);
        const numbers = items.filter((i): i is number => i !== "gap");
        expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
        expect(new Set(numbers).size).toBe(numbers.length);
        expect(numbers).toContain(1);
        expect(numbers).toContain(pages);
        expect(numbers).toContain(current);
        expect(items.length).toBeLessThanOrEqual(7);
        items.forEach((item, i) => {
          if (item !== "gap") return;
          const before = items[i - 1] as number;
          const after = items[i + 1] as number;
          expect(after - before).toBeGreaterThan(2);
        });
      }
    }
  });
});

describe("page size from the query: 10, 20 or 50, anything else falls back", () => {
  const url = (q: string) => new URL(`http://portal.test/g/home/userCenter/MyBills${q}`);
  it.each([
    ["?pageSize=20", 20],
    ["?pageSize=50", 50],
    ["?pageSize=10", 10],
    ["", 10],
    ["?pageSize=100", 10],
    ["?pageSize=020", 10],
    ["?pageSize=-1", 10],
    ["?pageSize=1e1", 10],
    ["?pageSize=abc", 10],
    ["?pageSize=%00", 10],
  ])("%s → %i", (q, size) => {
    expect(pageSizeParam(url(q))).toBe(size);
  });
  it("reads the page with it and keeps the list's own default", () => {
    expect(pagingOf(url("?page=3&pageSize=50"))).toEqual({ pageIndex: 3, pageSize: 50 });
    expect(pagingOf(url("?page=x&pageSize=7"), 20)).toEqual({ pageIndex: 1, pageSize: 20 });
  });
});

describe("safeReturnTo: the way back is a console path of this site, never an open redirect", () => {
  it.each([
    [
      "/g/home/PermissionedServices/PublishedServices/NewServices?appState=add",
      "/g/home/PermissionedServices/PublishedServices/NewServices?appState=add",
    ],
    ["/g/home/userCenter/MyBills?payState=1&page=2", "/g/home/userCenter/MyBills?payState=1&page=2"],
    ["/g/home/index#top", "/g/home/index"],
    ["/g/home/x/../userCenter/MyBills", "/g/home/userCenter/MyBills"],
  ])("keeps %s", (raw, expected) => {
    expect(safeReturnTo(raw)).toBe(expected);
  });

  it.each([
    null,
    undefined,
    "",
    "https://evil.example/g/home/index",
    "//evil.example/g/home/index",
    "/\\evil.example/g/home/index",
    "\\\\evil.example",
    "/g/home/..%2f..%2fx",
    "/g/home/%2e%2e/%2e%2e/g/main",
    "/g/home/../../g/main/Login",
    "/g/main/index",
    "/g/homeX/index",
    "g/home/index",
    "javascript:alert(1)",
    "/g/home/index\n//evil",
    "/g/home/\u0000x",
    "/g/home/\t/evil.example",
    `/g/home/${"a".repeat(1000)}`,
  ])("refuses %j", (raw) => {
    expect(safeReturnTo(raw)).toBeNull();
  });

  it("home's panel link carries a valid way back, and drops an invalid one", () => {
    const to = new URL(
      blockedHomeHref("newService", "/g/home/PermissionedServices/PublishedServices/NewServices?appState=add"),
      "http://portal.test",
    );
    expect(to.pathname).toBe("/g/home/index");
    expect(to.searchParams.get("blocked")).toBe("newService");
    expect(to.searchParams.get("returnTo")).toBe(
      "/g/home/PermissionedServices/PublishedServices/NewServices?appState=add",
    );
    expect(
      new URL(blockedHomeHref("editService", "https://evil.example/"), "http://portal.test").searchParams.has(
        "returnTo",
      ),
    ).toBe(false);
  });

  it("knows the guarded actions and their payType only", () => {
    expect(isBlockedAction("newService")).toBe(true);
    expect(isBlockedAction("toString")).toBe(false);
    expect(isBlockedAction("__proto__")).toBe(false);
    expect(BLOCKED_ACTIONS.dedicatedNode.payType).toBe(2);
    expect(Object.values(BLOCKED_ACTIONS).every((a) => a.payType === 1 || a.payType === 2)).toBe(true);
  });
});

describe("messageHref: a message's typed reference as the console page that shows it (issue 16)", () => {
  it.each(MESSAGE_REF_KINDS.map((kind) => [kind]))("%s leads to a console page carrying the id", (kind) => {
    const href = messageHref({ kind, id: 4217 });
    expect(href).toMatch(/^\/g\/home\/[A-Za-z/]+\?[A-Za-z]+=4217$/);
  });
  it("pages by kind", () => {
    expect(messageHref({ kind: "bill", id: 5 })).toBe("/g/home/userCenter/BillDetail?billId=5");
    expect(messageHref({ kind: "joinRequest", id: 6 })).toBe("/g/home/ParticipationManagement/View?appJoinAuditId=6");
    expect(messageHref({ kind: "participation", id: 7 })).toBe("/g/home/ParticipatedServices/ServicesDetail?appId=7");
  });
  it("a message without a reference has no link", () => {
    expect(messageHref(null)).toBeNull();
  });
});
