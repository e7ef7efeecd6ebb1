import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readSessionSecrets } from "#app/lib/env.server.ts";
import { formatDate, formatDay, formatUsd, messageParams } from "#app/lib/format.ts";
import { visibleMenu, type MenuEntry } from "#app/lib/menu.ts";
import { isMobileAllowed } from "#app/lib/mobile.ts";
import { safeReturnTo } from "#app/lib/session.server.ts";

describe("SPEC §9 dates", () => {
  // 2026-03-04 20:30 UTC is 2026-03-05 04:30 in UTC+8.
  const instant = "2026-03-04T20:30:00Z";
  it("English: MM/DD/YYYY in UTC+8, prefixed", () => {
    expect(formatDate(instant, "en")).toBe("UTC+8 03/05/2026");
    expect(formatDate(instant, "en", true)).toBe("UTC+8 03/05/2026 04:30");
  });
  it("Chinese: YYYY-MM-DD in UTC+8, prefixed", () => {
    expect(formatDate(instant, "zh-CN")).toBe("UTC+8 2026-03-05");
    expect(formatDate(new Date(instant), "zh-CN", true)).toBe("UTC+8 2026-03-05 04:30");
  });
  it("gives the same day and time as the Asia/Shanghai time-zone database, across years and midnights", () => {
    const tz = new Intl.DateTimeFormat("en-CA", {
      timeZone: "Asia/Shanghai",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    let t = Date.UTC(1995, 0, 1, 15, 59);
    for (let i = 0; i < 2000; i += 1) {
      const parts = Object.fromEntries(tz.formatToParts(t).map((p) => [p.type, p.value]));
      expect(formatDate(new Date(t), "zh-CN", true)).toBe(
        `UTC+8 ${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`,
      );
      t += 6 * 86_400_000 + 7 * 3_600_000 + 13 * 60_000; // steps that land on every hour and minute in turn
    }
  });
  it("shows nothing for a missing or broken date", () => {
    expect(formatDate(null, "en")).toBe("");
    expect(formatDate("not a date", "en")).toBe("");
  });
  it("shows an inbox message's instants in UTC+8 and its amounts as money, and leaves its other parameters alone", () => {
    const params = { name: "2026-03-04", until: "2026-03-04T20:30:00.000Z", amount: "88.00" };
    expect(messageParams(params, "en")).toEqual({
      name: "2026-03-04",
      until: "UTC+8 03/05/2026 04:30",
      amount: "$88.00",
    });
    expect(messageParams(params, "zh-CN").until).toBe("UTC+8 2026-03-05 04:30");
    expect(messageParams(null, "en")).toEqual({});
  });
  it("shows a UTC+8 calendar day as that day in both languages", () => {
    expect(formatDay("2026-11-25", "en")).toBe("UTC+8 11/25/2026");
    expect(formatDay("2026-01-01", "zh-CN")).toBe("UTC+8 2026-01-01");
    expect(formatDay(null, "en")).toBe("");
  });
  it("shows USD from integer cents", () => {
    expect(formatUsd(123456, "en")).toBe("$1,234.56");
    expect(formatUsd(5, "zh-CN")).toContain("0.05");
  });
});

describe("SPEC §2 mobile devices", () => {
  it.each([
    "/g/main/index",
    "/g/main/documentation",
    "/g/main/contactUs",
    "/g/main/Login/Logins",
    "/g/main/Login/Forget",
    "/g/main/ddc-QRCode",
    "/g/main/ddc-view",
    "/g/main/account-binding",
  ])("may reach %s", (p) => expect(isMobileAllowed(p)).toBe(true));
  it.each(["/g/main/register", "/g/home/index", "/g/main/privacy", "/g/home/userCenter/ChangePassword"])(
    "may not reach %s",
    (p) => expect(isMobileAllowed(p)).toBe(false),
  );
});

describe("return addresses after login", () => {
  it("keeps local paths and refuses other sites", () => {
    expect(safeReturnTo("/g/home/userCenter/MessageCenter?page=2")).toBe("/g/home/userCenter/MessageCenter?page=2");
    expect(safeReturnTo("//evil.example/x")).toBe("/g/home/index");
    expect(safeReturnTo("https://evil.example")).toBe("/g/home/index");
    expect(safeReturnTo("/\\evil.example")).toBe("/g/home/index");
    expect(safeReturnTo(undefined)).toBe("/g/home/index");
    // A Location header is ASCII: a hand-typed query is sent percent-encoded, not refused with a 500.
    expect(safeReturnTo("/g/home/search?q=区块链")).toBe("/g/home/search?q=%E5%8C%BA%E5%9D%97%E9%93%BE");
    // Dot segments cannot make it another host's address once resolved.
    expect(safeReturnTo("/a/..//evil.example/x")).toBe("/g/home/index");
  });
});

describe("SPEC §2 left menu", () => {
  const menu: MenuEntry[] = [
    { key: "b", to: "/b", navigation: 2 },
    { key: "hidden", to: "/h", navigation: 0 },
    { key: "a", to: "/a", navigation: 1 },
    { key: "ops", to: "/ops", navigation: 3, operatorOnly: true },
  ];
  it("lists entries with navigation > 0 in order, operator entries for operators only and first", () => {
    expect(visibleMenu("user", menu).map((e) => e.key)).toEqual(["a", "b"]);
    expect(visibleMenu("operator", menu).map((e) => e.key)).toEqual(["ops", "a", "b"]);
  });
  it("marks an entry current only on its own path when another entry's page is under it", () => {
    const nested: MenuEntry[] = [
      { key: "list", to: "/x", navigation: 1 },
      { key: "home", to: "/x/Home", navigation: 2 },
      { key: "ops", to: "/ops", navigation: 3 },
    ];
    expect(visibleMenu("user", nested).map((e) => [e.key, e.exact])).toEqual([
      ["list", true],
      ["home", false],
      ["ops", false],
    ]);
  });
  it("puts every entry of the real menu under a heading, but the overview (a user's) and operations (an operator's)", () => {
    const single = (role: "user" | "operator") =>
      visibleMenu(role)
        .filter((e) => !e.children?.length)
        .map((e) => e.key);
    expect(single("user")).toEqual(["home"]);
    expect(single("operator")).toEqual(["operations"]);
  });
  it("leads an operator's Operations to their landing, current there and on every queue (issue 30 item 4)", () => {
    const [operations] = visibleMenu("operator");
    expect(operations).toMatchObject({ key: "operations", to: "/g/home/index", currentUnder: "/g/home/operations" });
    expect(visibleMenu("user").some((e) => e.key === "operations")).toBe(false);
  });
});

describe("session secrets", () => {
  const base = { NODE_ENV: "test" as const, PORT: 3000, USER_MANUAL_URL: "/x" };
  afterEach(() => undefined);
  it("takes several comma-separated secrets for rotation", () => {
    expect(readSessionSecrets({ ...base, DATA_DIR: "/nonexistent", SESSION_SECRET: "new, old" })).toEqual([
      "new",
      "old",
    ]);
  });
  it("refuses to start without SESSION_SECRET when DATABASE_URL is set", () => {
    expect(() =>
      readSessionSecrets({ ...base, DATA_DIR: "/nonexistent", DATABASE_URL: "postgres://x@127.0.0.1/db" }),
    ).toThrow(/SESSION_SECRET/);
  });
  it("creates one secret in DATA_DIR for the embedded default and keeps it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "bsn-secret-"));
    const first = readSessionSecrets({ ...base, DATA_DIR: dir });
    const second = readSessionSecrets({ ...base, DATA_DIR: dir });
    expect(first).toEqual(second);
    expect(first[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(path.join(dir, "session-secret"), "utf8").trim()).toBe(first[0]);
    expect(statSync(path.join(dir, "session-secret")).mode & 0o777).toBe(0o600);
  });
});
