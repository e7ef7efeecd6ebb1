import { describe, expect, it } from "vitest";
import { PAY_TYPES } from "#contract/payments-codes.ts";
import { Msg } from "#contract/messages.ts";
import { activeUser, call } from "./client.ts";

/**
 * The two §7 paths whose payloads SPEC does not show (docs/decisions/063): h5payInfo, what paying a bill takes
 * now; selectBillAppConfig, the service configuration a bill charges. Over HTTP on the built server.
 */
async function ok<T = any>(path: string, body: unknown, token: string): Promise<T> {
  const res = await call<T>(path, body, token);
  expect(res.code, JSON.stringify(res)).toBe(0);
  return res.data;
}

describe("a bill's payment information and charged configuration", () => {
  it("answers the amount due, the shortfall and the ways to pay, and the nodes a publish bill charges", async () => {
    const me = await activeUser("binfo");
    const svc = await ok<{ appId: number }>("/test/services", { verState: 23, nodeCount: 2 }, me.token);
    const list = await ok<{ page: { rows: { billId: number; appId: number | null; billType: number }[] } }>(
      "/sys/system/clientInfo/h5billList",
      { page: { pageSize: 10, pageIndex: 1, condition: { billType: 1 } } },
      me.token,
    );
    const bill = list.page.rows.find((r) => r.appId === svc.appId)!;
    expect(bill).toBeTruthy();

    // An empty balance: the whole amount is short, and a recharge by any §9 payment type pays it.
    const before = await ok("/sys/system/clientInfo/h5payInfo", { billId: bill.billId }, me.token);
    expect(before).toMatchObject({ billId: bill.billId, payable: true, balanceCents: 0, methods: [...PAY_TYPES] });
    expect(before.amountDueCents).toBeGreaterThan(0);
    expect(before.shortfallCents).toBe(before.amountDueCents);

    // Enough balance: BALANCE only, nothing short.
    await ok("/test/fixtures", { grantCents: before.amountDueCents }, me.token);
    expect(await ok("/sys/system/clientInfo/h5payInfo", { billId: bill.billId }, me.token)).toMatchObject({
      balanceCents: before.amountDueCents,
      shortfallCents: 0,
      methods: ["BALANCE"],
    });

    const config = await ok("/sys/system/clientInfo/selectBillAppConfig", { billId: bill.billId }, me.token);
    expect(config).toMatchObject({ billId: bill.billId, appId: svc.appId, billType: 1, nodeCount: 2 });
    expect(config.nodes).toHaveLength(2);
    for (const node of config.nodes) {
      expect(node.nodeName).toBeTruthy();
      expect(node.tps).toBeGreaterThan(0);
      expect(node.capacityGb).toBeGreaterThan(0);
    }

    // A usage bill charges no configuration; a paid bill is due nothing and offers nothing.
    const [usage, paid] = (
      await ok<{ billIds: number[] }>(
        "/test/fixtures",
        {
          grantCents: 500,
          bills: [
            { totalCents: 120, cycle: 99, billType: 5 },
            { totalCents: 500, payState: 15 },
          ],
        },
        me.token,
      )
    ).billIds;
    expect((await ok("/sys/system/clientInfo/selectBillAppConfig", { billId: usage }, me.token)).nodes).toEqual([]);
    expect(await ok("/sys/system/clientInfo/h5payInfo", { billId: paid }, me.token)).toMatchObject({
      payable: false,
      amountDueCents: 0,
      shortfallCents: 0,
      methods: [],
    });

    // Another user's bill and an unknown one are not found.
    const other = await activeUser("binfo-other");
    for (const path of ["/sys/system/clientInfo/h5payInfo", "/sys/system/clientInfo/selectBillAppConfig"]) {
      expect((await call(path, { billId: bill.billId }, other.token)).message).toBe(Msg.NOT_FOUND);
      expect((await call(path, { billId: 2_000_000_000 }, me.token)).message).toBe(Msg.NOT_FOUND);
    }
  });
});
