import "./setup-env.ts";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { thrownResponse as thrownBy } from "../support/responses.ts";

// Route loaders over the real request layer; the embedded backend is replaced by an answer per test.
const backend = vi.hoisted(() => ({ answer: { code: 0, message: "success", data: null as unknown } }));
vi.mock("#backend/index.ts", () => ({
  handleVueapiInProcess: vi.fn(
    async () => new Response(JSON.stringify(backend.answer), { headers: { "Content-Type": "application/json" } }),
  ),
  // A JSON call in this process without a Request (docs/decisions/114): the same answer.
  callVueapiInProcess: vi.fn(async () => ({
    status: 200,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(backend.answer),
  })),
  startBackend: vi.fn(),
}));

const { commitSession, getSession } = await import("#app/lib/session.server.ts");
const messageCenter = await import("#app/routes/g.home.userCenter.MessageCenter.tsx");
const billDetail = await import("#app/routes/g.home.userCenter.BillDetail.tsx");
const published = await import("#app/routes/g.home.PermissionedServices.PublishedServices.ServicesDetail.tsx");

async function signedIn(url: string) {
  const session = await getSession(new Request("http://portal.test/"));
  session.set("token", "tok");
  session.set("user", { userId: 7, userName: "alice2026", realName: "爱丽丝", userType: 1, role: "user" });
  const cookie = (await commitSession(session)).split(";")[0];
  return { request: new Request(`http://portal.test${url}`, { headers: { Cookie: cookie } }), params: {}, context: {} };
}

beforeEach(() => {
  backend.answer = { code: 0, message: "success", data: null };
});

describe("a silent answer (SPEC §8 MSG_32029) to a page's load", () => {
  it("renders the page with empty data (Message center: no messages)", async () => {
    backend.answer = { code: 1, message: "MSG_32029", data: null };
    const res = (await messageCenter.loader(await signedIn("/g/home/userCenter/MessageCenter"))) as Response;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ page: { rows: [], total: 0 }, unread: 0, filter: "all" });
  });
});

describe("an unknown or another user's id in a page's load (the backend answers MSG_10002)", () => {
  for (const [name, route, url] of [
    ["BillDetail", billDetail, "/g/home/userCenter/BillDetail?billId=424242"],
    [
      "PublishedServices ServicesDetail",
      published,
      "/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=424242",
    ],
  ] as const) {
    it(`${name} is a 404 with the not-found message`, async () => {
      backend.answer = { code: 1, message: "MSG_10002", data: null };
      const res = await thrownBy(route.loader(await signedIn(url)));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ messageKey: "errors:MSG_10002" });
    });
  }

  it("an id no record can have is a 404 without asking the backend", async () => {
    const { callVueapiInProcess, handleVueapiInProcess } = await import("#backend/index.ts");
    vi.mocked(handleVueapiInProcess).mockClear();
    vi.mocked(callVueapiInProcess).mockClear();
    for (const appId of ["abc", "12abc", "0", "-3", "1e3", "2147483648", "99999999999"]) {
      const res = await thrownBy(
        published.loader(
          await signedIn(`/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${appId}`),
        ),
      );
      expect(res.status, appId).toBe(404);
    }
    expect(handleVueapiInProcess).not.toHaveBeenCalled();
    expect(callVueapiInProcess).not.toHaveBeenCalled();
  });
});
