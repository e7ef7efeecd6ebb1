import "./setup-env.ts";
import { describe, expect, it, vi } from "vitest";

// The guard helper is tested against fake transports; the embedded backend is not loaded.
vi.mock("#backend/index.ts", () => ({ handleVueapi: vi.fn(), startBackend: vi.fn() }));
import { autoPayFormSchema, billBlocks, LEDGER_ENTRY_KINDS } from "#contract/billing.ts";
import type { Viewer } from "#app/lib/api.server.ts";
import { utc8Day } from "#app/lib/bills.ts";
import { billFilterFromQuery, kindFromQuery, pageFromQuery, payFormOf } from "#app/lib/bills.server.ts";
import { getFlash } from "#app/lib/session.server.ts";
import { requireNoUnpaidBills } from "#app/lib/unpaid-guard.server.ts";
import { isPayable, newBillNo } from "#backend/domains/billing/rules.ts";
import { trafficLine } from "#backend/domains/billing/jobs.ts";
import { deltasFor } from "#backend/domains/billing/ledger.ts";
import {
  addDays,
  dayOf,
  daysBetween,
  lastCompletedWeekStart,
  startOfDay,
  weekEnd,
  weekStartOf,
} from "#backend/domains/billing/time.ts";
import { thrownResponse as thrown } from "../support/responses.ts";

const viewer: Viewer = {
  language: "en",
  token: "tok",
  user: { userId: 1, userName: "alice1", realName: "爱", userType: 1, role: "user" },
  mobile: false,
};
const incoming = () =>
  new Request("http://portal.test/g/home/PermissionedServices/PublishedServices/NewServices?appState=add");
const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

async function flashOf(response: Response) {
  const cookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith("__flash="))!
    .split(";")[0];
  return (await getFlash(new Request("http://portal.test/", { headers: { Cookie: cookie } }))).flash;
}

describe("requireNoUnpaidBills (SPEC §7 h5isHasNoPayBillV2)", () => {
  it("lets the request through on code 0 with data true, sending the payType", async () => {
    let body: Record<string, unknown> | undefined;
    await requireNoUnpaidBills(incoming(), viewer, "dedicatedNode", {
      transport: async (r) => {
        expect(new URL(r.url).pathname).toBe("/vueapi/sys/product/h5isHasNoPayBillV2");
        body = await r.json();
        return reply({ code: 0, message: "success", data: true });
      },
    });
    expect(body).toMatchObject({ payType: 2 });
  });

  it("redirects to /g/home/index with the action and the way back for its panel, and the unpaid-bills flash, on data false", async () => {
    const res = await thrown(
      requireNoUnpaidBills(incoming(), viewer, "newService", {
        transport: async () => reply({ code: 0, message: "success", data: false }),
      }),
    );
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get("Location")!, "http://portal.test");
    expect(to.pathname).toBe("/g/home/index");
    expect(to.searchParams.get("blocked")).toBe("newService");
    expect(to.searchParams.get("returnTo")).toBe(
      "/g/home/PermissionedServices/PublishedServices/NewServices?appState=add",
    );
    expect(await flashOf(res)).toEqual({ kind: "error", key: "errors:MSG_30005" });
  });

  it("redirects with the failure's own message when the call fails", async () => {
    const res = await thrown(
      requireNoUnpaidBills(incoming(), viewer, "newService", {
        transport: async () => reply({ code: 1, message: "MSG_10500", data: null }, 500),
      }),
    );
    expect(res.headers.get("Location")).toBe("/g/home/index");
    expect(await flashOf(res)).toEqual({ kind: "error", key: "errors:MSG_10500" });
    const network = await thrown(
      requireNoUnpaidBills(incoming(), viewer, "newService", {
        transport: async () => {
          throw new TypeError("fetch failed");
        },
      }),
    );
    expect(await flashOf(network)).toEqual({ kind: "error", key: "errors:http.network" });
  });

  it("an invalid session still goes to login through the request layer (SPEC §8)", async () => {
    const res = await thrown(
      requireNoUnpaidBills(incoming(), viewer, "newService", {
        transport: async () => reply({ code: 3, message: "MSG_10005", data: null }),
      }),
    );
    expect(res.headers.get("Location")).toBe("/g/main/index");
  });
});

describe("UTC+8 weeks of the traffic bills", () => {
  it("starts weeks on Monday 00:00 UTC+8", () => {
    expect(weekStartOf(new Date("2026-06-07T15:59:59Z"))).toBe("2026-06-01"); // Sunday 23:59:59 UTC+8
    expect(weekStartOf(new Date("2026-06-07T16:00:00Z"))).toBe("2026-06-08"); // Monday 00:00 UTC+8
    expect(lastCompletedWeekStart(new Date("2026-06-07T16:00:00Z"))).toBe("2026-06-01");
    expect(weekEnd("2026-06-01").toISOString()).toBe("2026-06-07T16:00:00.000Z");
    expect(dayOf(new Date("2026-06-01T16:30:00Z"))).toBe("2026-06-02");
    expect(startOfDay("2026-06-02").toISOString()).toBe("2026-06-01T16:00:00.000Z");
    expect(addDays("2026-02-27", 2)).toBe("2026-03-01");
    expect(daysBetween("2026-05-30", "2026-06-02")).toEqual(["2026-05-30", "2026-05-31", "2026-06-01", "2026-06-02"]);
    expect(utc8Day(new Date("2026-06-01T16:30:00Z"))).toBe("2026-06-02");
  });

  it("prices traffic at 1024 MB a GB, rounded to 2 decimals and to the cent", () => {
    expect(trafficLine("CN-BJ-01", 1_536, 12)).toEqual({
      nodeCode: "CN-BJ-01",
      usedGb: 1.5,
      pricePerGbCents: 12,
      amountCents: 18,
    });
    expect(trafficLine("X", 100, 16)).toMatchObject({ usedGb: 0.1, amountCents: 2 });
    expect(trafficLine("X", 1, 12)).toMatchObject({ usedGb: 0, amountCents: 0 });
    expect(trafficLine("X", 1_048_576, 15)).toMatchObject({ usedGb: 1024, amountCents: 15_360 });
  });
});

describe("which bills can be paid (ADR 006)", () => {
  const now = new Date("2026-06-10T00:00:00Z");
  const later = new Date("2026-06-11T00:00:00Z");
  const earlier = new Date("2026-06-09T00:00:00Z");
  it.each([
    ["unpaid prepaid before its deadline", { payState: 1, payMode: 1, deadline: later, payCents: 100 }, true],
    ["unpaid prepaid past its deadline", { payState: 1, payMode: 1, deadline: earlier, payCents: 100 }, false],
    ["unpaid usage bill past its deadline", { payState: 1, payMode: 2, deadline: earlier, payCents: 100 }, true],
    ["paid", { payState: 15, payMode: 1, deadline: later, payCents: 100 }, false],
    ["expired", { payState: 10, payMode: 1, deadline: later, payCents: 100 }, false],
    ["in payment", { payState: 2, payMode: 2, deadline: later, payCents: 100 }, false],
    ["nothing to pay", { payState: 1, payMode: 1, deadline: later, payCents: 0 }, false],
  ])("%s", (_name, bill, payable) => {
    expect(isPayable(bill, now)).toBe(payable);
  });
});

describe("which bills block (SPEC §5 as ADR 059 reads it)", () => {
  const now = new Date("2026-06-10T00:00:00Z");
  const later = new Date("2026-06-11T00:00:00Z");
  const earlier = new Date("2026-06-09T00:00:00Z");
  // [name, bill, blocks payType 1, blocks payType 2]
  it.each([
    ["usage bill before its deadline", { billType: 3, payMode: 2, payState: 1, deadline: later }, false, false],
    ["usage bill at its deadline", { billType: 3, payMode: 2, payState: 1, deadline: now }, true, true],
    ["usage bill past its deadline", { billType: 3, payMode: 2, payState: 1, deadline: earlier }, true, true],
    ["IPFS traffic past its deadline", { billType: 4, payMode: 2, payState: 1, deadline: earlier }, true, true],
    ["cross-chain bill, failed, overdue", { billType: 5, payMode: 2, payState: 5, deadline: earlier }, true, true],
    ["cross-chain bill in payment, not due", { billType: 5, payMode: 2, payState: 2, deadline: later }, false, false],
    ["usage bill paid", { billType: 3, payMode: 2, payState: 15, deadline: earlier }, false, false],
    ["dedicated-node bill waiting", { billType: 10, payMode: 1, payState: 1, deadline: later }, false, true],
    [
      "dedicated-node bill past its deadline",
      { billType: 10, payMode: 1, payState: 1, deadline: earlier },
      false,
      false,
    ],
    ["publish bill waiting", { billType: 1, payMode: 1, payState: 1, deadline: later }, false, false],
    ["IPFS storage bill waiting", { billType: 4, payMode: 1, payState: 1, deadline: later }, false, false],
  ])("%s", (_name, bill, one, two) => {
    expect(billBlocks(bill, 1, now)).toBe(one);
    expect(billBlocks(bill, 2, now)).toBe(two);
  });
  it("the auto-pay form takes on or off, nothing else", () => {
    expect(autoPayFormSchema.parse({ intent: "autoPay", enabled: "on" })).toEqual({ enabled: true });
    expect(autoPayFormSchema.parse({ enabled: "off" })).toEqual({ enabled: false });
    expect(autoPayFormSchema.safeParse({ enabled: "yes" }).success).toBe(false);
    expect(autoPayFormSchema.safeParse({}).success).toBe(false);
  });
});

describe("portal query parsing", () => {
  it("keeps valid bill filters and drops the rest", () => {
    expect(
      billFilterFromQuery(new URLSearchParams("billType=3&payState=1&dateFrom=2026-06-01&dateTo=2026-06-30")),
    ).toEqual({
      billType: 3,
      payState: 1,
      dateFrom: "2026-06-01",
      dateTo: "2026-06-30",
    });
    expect(billFilterFromQuery(new URLSearchParams("billType=abc&payState=7&dateFrom=2026-02-30&dateTo="))).toEqual({});
    expect(pageFromQuery(new URLSearchParams("page=-3"))).toBe(1);
    expect(pageFromQuery(new URLSearchParams("page=4"))).toBe(4);
    expect(kindFromQuery(new URLSearchParams("kind=refund"))).toBe("refund");
    expect(kindFromQuery(new URLSearchParams("kind=theft"))).toBeUndefined();
  });

  it("accepts only the pay intent with a well-formed key", () => {
    const form = (entries: Record<string, string>) =>
      Object.entries(entries).reduce((f, [k, v]) => (f.append(k, v), f), new FormData());
    expect(payFormOf(form({ intent: "pay", idempotencyKey: "0f6c3a9e-1b2c-4d5e-8f90-123456789abc" }))).toEqual({
      idempotencyKey: "0f6c3a9e-1b2c-4d5e-8f90-123456789abc",
    });
    expect(payFormOf(form({ intent: "refund", idempotencyKey: "0f6c3a9e-1b2c-4d5e-8f90-123456789abc" }))).toBeNull();
    expect(payFormOf(form({ intent: "pay", idempotencyKey: "short" }))).toBeNull();
  });

  it("the ledger posts every kind the contract lists", () => {
    const totals = { balanceCents: 1000, withdrawableCents: 1000, invoiceableCents: 1000 };
    for (const kind of LEDGER_ENTRY_KINDS) {
      expect(
        Object.values(deltasFor(kind, 100, totals)).some((delta) => delta !== 0),
        kind,
      ).toBe(true);
    }
  });
});

describe("bill numbers", () => {
  it("carry the prefix and the UTC+8 day, and never repeat within one process: 100 in one millisecond, a day of them apart", () => {
    const at = new Date("2026-03-04T20:30:00.123Z"); // 2026-03-05 04:30 in UTC+8
    const same = Array.from({ length: 100 }, () => newBillNo(at, "IP"));
    expect(new Set(same).size).toBe(100);
    for (const n of same) expect(n).toMatch(/^IP20260305\d{12}$/);
    const day = new Set<string>();
    for (let ms = 0; ms < 86_400_000; ms += 997) day.add(newBillNo(new Date(Date.UTC(2026, 2, 4, 16) + ms)));
    expect(day.size).toBe(Math.ceil(86_400_000 / 997));
  });
});
