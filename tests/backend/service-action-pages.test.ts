import { beforeAll, describe, expect, inject, it } from "vitest";
import { serviceActions, type ServiceAction } from "#contract/service-status.ts";
import { activeUser, call, PASSWORD, portalLogin } from "./client.ts";

/**
 * Page level (SPEC §4 Action availability): PublishedServices and ServicesDetail show, for each service,
 * exactly the actions serviceActions() allows for its flags ("upgrade" is shown once, as the service
 * upgrade entry; the detail omits "details", the page it is). Each entry carries `data-action`.
 */
const STATES = [
  { label: "running", verState: 25, free: false },
  { label: "running free", verState: 25, free: true },
  { label: "to be paid", verState: 23, free: false },
  { label: "pending review", verState: 15, free: false },
  { label: "deactivated", verState: 30, free: false },
  { label: "in review", verState: 5, free: false },
] as const;

let token = "";
let cookie = "";
let rows: any[] = [];

beforeAll(async () => {
  const user = await activeUser("acts");
  token = user.token;
  for (const s of STATES) {
    // 1 TPS on one node: a long run has used up most of the first nodes, and a failed deployment would not reach 25.
    const made = await call(
      "/test/services",
      { verState: s.verState, free: s.free, tps: 1, nodeCount: 1, name: `${user.userName.slice(0, 20)} ${s.label}` },
      token,
    );
    expect(made.code, JSON.stringify(made)).toBe(0);
  }
  rows = (await call("/sys/chainAppInfo/publishedList", { page: { pageSize: 50, condition: {} } }, token)).data.page
    .rows;
  expect(rows).toHaveLength(STATES.length);
  cookie = await portalLogin(user.userName, PASSWORD);
}, 180_000);

/** The actions serviceActions() allows for a row, as the pages name them. */
function expected(row: any, omitDetails: boolean): string[] {
  const allowed = serviceActions({ ...row, unpaidBill: row.unpaidBillId !== null });
  return [...allowed].filter((a: ServiceAction) => a !== "upgrade" && !(omitDetails && a === "details")).sort();
}

/**
 * The `data-action` entries of `name`: on the detail, inside the group of actions labelled for it; in the list,
 * inside its row (the main action and the "More" menu, whose items are in the page without JavaScript).
 */
function shown(html: string, name: string): string[] {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const group = html.match(new RegExp(`aria-label="Actions for ${escaped}" role="group">([\\s\\S]*?)</div>`));
  const row = group
    ? null
    : html.match(
        new RegExp(`<tr[^>]*data-testid="service-row"[^>]*>(?:(?!</tr>)[\\s\\S])*?${escaped}(?=[<"])[\\s\\S]*?</tr>`),
      );
  const part = group?.[1] ?? row?.[0];
  expect(part, `the actions of ${name}`).toBeTypeOf("string");
  return [...new Set([...part!.matchAll(/data-action="([a-zA-Z]+)"/g)].map((m) => m[1]))].sort();
}

const page = async (path: string) => {
  const res = await fetch(inject("baseUrl") + path, { headers: { Cookie: cookie, "Accept-Language": "en" } });
  expect(res.status).toBe(200);
  return res.text();
};

describe("the pages show exactly the actions serviceActions() returns", () => {
  it("PublishedServices, each row", async () => {
    const html = (await page("/g/home/PermissionedServices/PublishedServices")).replaceAll("&#x27;", "'");
    for (const row of rows) expect(shown(html, row.name), row.name).toEqual(expected(row, false));
  });

  it("ServicesDetail, each service", async () => {
    for (const row of rows) {
      const html = await page(`/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${row.appId}`);
      expect(shown(html, row.name), row.name).toEqual(expected(row, true));
    }
  });

  it("a running free service offers Config upgrade; a service offering Join links to its invitation", async () => {
    const free = rows.find((r) => r.freeYN === 1 && r.verState === 25);
    expect(free, "the running free fixture reached 25").toBeDefined();
    expect(expected(free, false)).toContain("configUpgrade");
    // Join needs a paid bill and a running version (§4): the paid running fixture offers it, and every row that
    // offers it leads to its invitation link.
    const running = rows.find((r) => r.name.endsWith(" running"));
    expect(running, "the running fixture").toMatchObject({ verState: 25, freeYN: 0 });
    expect([15, 25]).toContain(running.billState);
    expect(expected(running, false)).toContain("join");
    const joining = rows.filter((r) => expected(r, false).includes("join"));
    expect(joining.map((r) => r.appVerId)).toContain(running.appVerId);
    for (const row of joining) {
      const res = await fetch(
        `${inject("baseUrl")}/g/home/PermissionedServices/PublishedServices?join=${row.appVerId}`,
        { headers: { Cookie: cookie }, redirect: "manual" },
      );
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toMatch(/^\/g\/home\/ParticipatedServices\/JOIN\?/);
    }
  });
});
