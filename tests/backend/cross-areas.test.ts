import { describe, expect, it } from "vitest";
import { activeUser, call } from "./client.ts";

// Where the finance and services areas meet: a publish bill paid from My bills moves the service on, and unpaid
// traffic bills block the wizard's submission on the backend too (SPEC §5 Blocking by bills).
describe("finance and services together", () => {
  it("paying a service's publish bill on BillDetail pays once and moves the service to pending publish", async () => {
    const { token } = await activeUser("xpay");
    const made = await call("/test/services", { verState: 23, costCents: 4_500 }, token);
    expect(made.code, JSON.stringify(made)).toBe(0);
    const list = await call(
      "/sys/system/clientInfo/h5billList",
      { page: { pageSize: 10, pageIndex: 1, condition: {} } },
      token,
    );
    const bill = list.data.page.rows.find((b: { appId: number | null }) => b.appId === made.data.appId);
    expect(bill).toMatchObject({ billType: 1, payState: 1 });

    expect(
      (
        await call(
          "/sys/system/clientInfo/h5billPay",
          { billId: bill.billId, idempotencyKey: "xpay-key-0000000001" },
          token,
        )
      ).message,
    ).toBe("MSG_30001");
    expect((await call("/test/fixtures", { grantCents: 5_000 }, token)).code).toBe(0);
    const paid = await call(
      "/sys/system/clientInfo/h5billPay",
      { billId: bill.billId, idempotencyKey: "xpay-key-0000000002" },
      token,
    );
    expect(paid.code, JSON.stringify(paid)).toBe(0);
    expect(paid.data).toMatchObject({ payState: 15, balanceCents: 500, replayed: false });
    const again = await call(
      "/sys/system/clientInfo/h5billPay",
      { billId: bill.billId, idempotencyKey: "xpay-key-0000000002" },
      token,
    );
    expect(again.data).toMatchObject({ replayed: true, balanceCents: 500 });

    const detail = await call(
      "/sys/chainAppInfo/publishedDetail",
      { appId: made.data.appId, appVerId: made.data.appVerId },
      token,
    );
    expect(detail.code, JSON.stringify(detail)).toBe(0);
    expect([24, 25]).toContain(detail.data.verState);
  });

  it("an unpaid traffic bill closes the guard; paying it opens it again", async () => {
    const { token } = await activeUser("xgrd");
    expect((await call("/sys/product/h5isHasNoPayBillV2", { payType: 1 }, token)).data).toBe(true);
    const made = await call(
      "/test/fixtures",
      { grantCents: 1_000, bills: [{ billType: 3, cycle: 99, totalCents: 300 }] },
      token,
    );
    expect((await call("/sys/product/h5isHasNoPayBillV2", { payType: 1 }, token)).data).toBe(false);
    expect(
      (
        await call(
          "/sys/system/clientInfo/h5billPay",
          { billId: made.data.billIds[0], idempotencyKey: "xgrd-key-0000000001" },
          token,
        )
      ).code,
    ).toBe(0);
    expect((await call("/sys/product/h5isHasNoPayBillV2", { payType: 1 }, token)).data).toBe(true);
  });
});
