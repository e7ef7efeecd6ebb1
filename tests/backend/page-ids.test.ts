import { beforeAll, describe, expect, inject, it } from "vitest";
import { activeUser, call, login, PASSWORD, portalLogin } from "./client.ts";

/**
 * Detail pages and downloads with an id in the address (house habit 11): an unknown id, one that is not
 * a number (or no number a record can have) and another user's id all answer 404, never a 5xx. The other
 * users' ids are the demo accounts' records; the viewer is a new user.
 */

type Ids = {
  billId: number;
  appId: number;
  joinAppId: number;
  joinId: number;
  manageJoinId: number;
  certificateId: number;
};
let ids: Ids;
let cookie = "";

async function tokenOf(userName: string) {
  const res = await login(userName, "Demo12!@pass");
  expect(res.code).toBe(0);
  return res.data.token;
}

beforeAll(async () => {
  const person = await tokenOf("demoperson");
  const company = await tokenOf("democompany");
  const page = { pageIndex: 1, pageSize: 10 };
  const bills = await call("/sys/system/clientInfo/h5billList", { page }, person);
  const certificates = await call("/sys/chainAppInfo/myCertificates", { page }, person);
  const joined = await call("/sys/chainAppInfo/participatedList", { page }, person);
  const published = await call("/sys/chainAppInfo/publishedList", { page }, company);
  const managed = await call("/sys/chainAppInfo/joinManageList", { page }, company);
  ids = {
    billId: bills.data.page.rows[0].billId,
    certificateId: certificates.data.page.rows[0].certificateId,
    joinAppId: joined.data.page.rows[0].appId,
    joinId: joined.data.page.rows[0].appJoinAuditId,
    appId: published.data.page.rows[0].appId,
    manageJoinId: managed.data.page.rows[0].appJoinAuditId,
  };
  const viewer = await activeUser("ids");
  cookie = await portalLogin(viewer.userName, PASSWORD);
});

/** The pages, each with the address for an id (`id` replaces {id}). */
const PAGES: { name: string; url: (id: string) => string; foreign: () => string }[] = [
  { name: "BillDetail", url: (id) => `/g/home/userCenter/BillDetail?billId=${id}`, foreign: () => String(ids.billId) },
  {
    name: "PublishedServices ServicesDetail",
    url: (id) => `/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${id}`,
    foreign: () => String(ids.appId),
  },
  {
    name: "ParticipatedServices ServicesDetail",
    url: (id) => `/g/home/ParticipatedServices/ServicesDetail?appId=${id}`,
    foreign: () => `${ids.joinAppId}&appJoinAuditId=${ids.joinId}`,
  },
  {
    name: "ParticipationManagement View",
    url: (id) => `/g/home/ParticipationManagement/View?appJoinAuditId=${id}`,
    foreign: () => String(ids.manageJoinId),
  },
  {
    name: "MyCertificates download",
    url: (id) => `/g/home/MyCertificates/download?kind=certificate&certificateId=${id}`,
    foreign: () => String(ids.certificateId),
  },
  {
    name: "wizard cover",
    url: (id) => `/g/home/PermissionedServices/PublishedServices/NewServices/cover?appId=${id}`,
    foreign: () => String(ids.appId),
  },
];

const UNKNOWN = ["987654", "2147483647", "2147483648", "99999999999"];
const NOT_NUMBERS = ["abc", "12abc", "-1", "0", "1.5", "1e3", "%00", ""];

describe("an id that is unknown, not a number, or another user's is a 404", () => {
  for (const page of PAGES) {
    it(page.name, async () => {
      const cases = [
        ...UNKNOWN.map((id) => ["unknown", id]),
        ...NOT_NUMBERS.map((id) => ["not a number", id]),
        ["another user's", page.foreign()],
      ];
      const wrong: string[] = [];
      for (const [kind, id] of cases) {
        const res = await fetch(inject("baseUrl") + page.url(id), { headers: { Cookie: cookie }, redirect: "manual" });
        const body = await res.text();
        if (res.status !== 404) wrong.push(`${kind} ${JSON.stringify(id)}: ${res.status}`);
        if (res.headers.get("content-type")?.startsWith("text/html") && !/not exist|not found/i.test(body))
          wrong.push(`${kind} ${JSON.stringify(id)}: no not-found message`);
      }
      expect(wrong).toEqual([]);
    });
  }

  it("the owners themselves still get their pages (the ids are real)", async () => {
    const owner = await portalLogin("demoperson", "Demo12!@pass");
    for (const url of [PAGES[0].url(String(ids.billId)), PAGES[4].url(String(ids.certificateId))]) {
      const res = await fetch(inject("baseUrl") + url, { headers: { Cookie: owner }, redirect: "manual" });
      expect(res.status, url).toBe(200);
      await res.arrayBuffer();
    }
  });
});
