import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GB } from "#contract/ipfs-codes.ts";
import { Msg } from "#contract/messages.ts";
import { post as ledgerPost } from "#backend/domains/billing/ledger.ts";
import { bills, ledgerEntries } from "#backend/domains/billing/tables.ts";
import { ipfsServices, ipfsUpgrades } from "#backend/domains/ipfs/tables.ts";
import { messages } from "#backend/db/tables.ts";
import { callVueapi, insertedUser, openVueapi, sessionOf, type Vueapi } from "./in-process.ts";
import { uniqueName } from "./client.ts";
import { okVia } from "../support/envelope.ts";
import { idempotencyKeys } from "../support/ids.ts";

// Issue 13 "Upgrades" (docs/decisions/039, addendum "Capacity upgrades"): a larger capacity requested by the owner,
// the difference paid at once with an IPFS bill, taken and decided by an operator; on PGlite or DATABASE_URL.

let service: Vueapi;
let op: string;

const idem = idempotencyKeys("ipu");
const post = (p: string, body: object, token: string) => callVueapi(service, p, body, token);
const ok = okVia(post);

/** A user with a balance and a 1 GB service (30 cents for its period). */
async function owner(prefix: string, grantCents = 10_000) {
  const userId = await insertedUser(service, uniqueName(prefix));
  const token = await sessionOf(service, userId);
  if (grantCents > 0)
    await service.services.db.transaction((tx) =>
      ledgerPost(
        tx,
        { userId, kind: "grant", amountCents: grantCents, refType: "grant", refId: userId },
        service.services.now(),
      ),
    );
  const nodes = await ok<any[]>("/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices", {}, token);
  const svc = await ok(
    "/sys/ipfsBusiness/ipfs/create",
    { name: `${prefix} store`, storeUnit: 1, orgIds: [nodes[0].orgId], idempotencyKey: idem() },
    token,
  );
  return { userId, token, svc };
}
const inbox = (userId: number) =>
  service.services.db.select().from(messages).where(eq(messages.userId, userId)).orderBy(asc(messages.id));
const balance = async (token: string) => (await ok("/sys/account/summary", {}, token)).balanceCents as number;
const request = (token: string, ipfsServiceId: number, toStoreUnit: number, idempotencyKey = idem()) =>
  post("/sys/ipfsBusiness/ipfsUpgrade/create", { ipfsServiceId, toStoreUnit, idempotencyKey }, token);

beforeAll(async () => {
  service = await openVueapi("ipfs-upgrades", {
    DATABASE_URL: process.env.DATABASE_URL,
    PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
    DEMO: "0",
    TEST_FIXTURES: "1",
    JOBS_INTERVAL_MS: "0",
  });
  op = await sessionOf(service, await insertedUser(service, uniqueName("ipop"), "operator"));
}, 120_000);
afterAll(async () => {
  await service?.close();
});

describe("IPFS capacity upgrades (issue 13)", () => {
  it("offers the larger capacities with the difference for the rest of the period", async () => {
    const a = await owner("iuo");
    const options = await ok("/sys/ipfsBusiness/ipfsUpgrade/options", { ipfsServiceId: a.svc.ipfsServiceId }, a.token);
    expect(options).toMatchObject({ storeUnit: 1, remainingDays: 30, periodDays: 30, openUpgradeId: null });
    expect(options.options.map((o: any) => o.storeUnit)).toEqual([10, 50, 100, 500, 1024]);
    // 10 GB at 25 cents a GB minus 1 GB at 30 cents, a whole period left.
    expect(options.options[0]).toEqual({ storeUnit: 10, fullPeriodDiffCents: 220, priceDiffCents: 220 });
  });

  it("bills the difference from the balance at once; the capacity applies only on success", async () => {
    const a = await owner("iua");
    const before = await balance(a.token);
    const key = idem();
    const up = await ok(
      "/sys/ipfsBusiness/ipfsUpgrade/create",
      { ipfsServiceId: a.svc.ipfsServiceId, toStoreUnit: 10, idempotencyKey: key },
      a.token,
    );
    expect(up).toMatchObject({
      status: 0,
      fromStoreUnit: 1,
      toStoreUnit: 10,
      priceDiffCents: 220,
      replayed: false,
      billNo: expect.stringMatching(/^IU/),
    });
    expect(await balance(a.token)).toBe(before - 220);
    const [bill] = await service.services.db.select().from(bills).where(eq(bills.id, up.billId));
    expect(bill).toMatchObject({ billType: 4, payState: 15, payCents: 220, userId: a.userId });
    // The same key answers the first request and pays nothing more.
    expect(
      await ok(
        "/sys/ipfsBusiness/ipfsUpgrade/create",
        { ipfsServiceId: a.svc.ipfsServiceId, toStoreUnit: 10, idempotencyKey: key },
        a.token,
      ),
    ).toMatchObject({ ipfsUpgradeId: up.ipfsUpgradeId, replayed: true });
    expect(await balance(a.token)).toBe(before - 220);
    // Not applied while pending or processing.
    const queue = await ok("/sys/ops/ipfsUpgrades/list", { pageSize: 50 }, op);
    expect(queue.page.rows.find((r: any) => r.ipfsUpgradeId === up.ipfsUpgradeId)).toMatchObject({
      status: 0,
      owner: expect.any(String),
    });
    expect(await ok("/sys/ops/ipfsUpgrades/take", { ipfsUpgradeId: up.ipfsUpgradeId }, op)).toEqual({ status: 2 });
    expect((await post("/sys/ops/ipfsUpgrades/take", { ipfsUpgradeId: up.ipfsUpgradeId }, op)).message).toBe(
      Msg.IPFS_UPGRADE_NOT_AVAILABLE,
    );
    expect((await ok("/sys/ipfsBusiness/ipfs/detail", { ipfsServiceId: a.svc.ipfsServiceId }, a.token)).storeUnit).toBe(
      1,
    );
    expect(
      await ok("/sys/ops/ipfsUpgrades/decide", { ipfsUpgradeId: up.ipfsUpgradeId, decision: "approve" }, op),
    ).toEqual({ status: 5 });
    const detail = await ok("/sys/ipfsBusiness/ipfs/detail", { ipfsServiceId: a.svc.ipfsServiceId }, a.token);
    expect(detail).toMatchObject({ storeUnit: 10, capacityBytes: 10 * GB });
    expect(
      await ok("/sys/ipfsBusiness/ipfsUpgrade/detail", { ipfsUpgradeId: up.ipfsUpgradeId }, a.token),
    ).toMatchObject({ status: 5, decidedAt: expect.any(String), refundCents: 0 });
    // A decided upgrade is final, and it left the queue.
    expect(
      (
        await post(
          "/sys/ops/ipfsUpgrades/decide",
          { ipfsUpgradeId: up.ipfsUpgradeId, decision: "reject", comments: "late" },
          op,
        )
      ).message,
    ).toBe(Msg.IPFS_UPGRADE_NOT_AVAILABLE);
    expect(
      (await ok("/sys/ops/ipfsUpgrades/list", { pageSize: 50 }, op)).page.rows.some(
        (r: any) => r.ipfsUpgradeId === up.ipfsUpgradeId,
      ),
    ).toBe(false);
    const list = await ok("/sys/ipfsBusiness/ipfsUpgrade/list", { ipfsServiceId: a.svc.ipfsServiceId }, a.token);
    expect(list.page.rows.map((r: any) => r.ipfsUpgradeId)).toEqual([up.ipfsUpgradeId]);
    // The owner is told in the message center.
    expect(await inbox(a.userId)).toContainEqual(
      expect.objectContaining({
        textKey: "messages.ipfsUpgradeSucceeded",
        params: expect.objectContaining({ capacity: "10 GB" }),
      }),
    );
  });

  it("a failure needs a reason, refunds the difference through the ledger and keeps the capacity", async () => {
    const a = await owner("iuf");
    const before = await balance(a.token);
    const up = await ok(
      "/sys/ipfsBusiness/ipfsUpgrade/create",
      { ipfsServiceId: a.svc.ipfsServiceId, toStoreUnit: 50, idempotencyKey: idem() },
      a.token,
    );
    expect(up.priceDiffCents).toBe(50 * 20 - 30);
    expect(await balance(a.token)).toBe(before - up.priceDiffCents);
    await ok("/sys/ops/ipfsUpgrades/take", { ipfsUpgradeId: up.ipfsUpgradeId }, op);
    expect(
      (await post("/sys/ops/ipfsUpgrades/decide", { ipfsUpgradeId: up.ipfsUpgradeId, decision: "reject" }, op)).message,
    ).toBe(Msg.IPFS_UPGRADE_REASON_REQUIRED);
    expect(
      await ok(
        "/sys/ops/ipfsUpgrades/decide",
        { ipfsUpgradeId: up.ipfsUpgradeId, decision: "reject", comments: "No room on the cluster" },
        op,
      ),
    ).toEqual({ status: 6 });
    expect(await balance(a.token)).toBe(before);
    const detail = await ok("/sys/ipfsBusiness/ipfsUpgrade/detail", { ipfsUpgradeId: up.ipfsUpgradeId }, a.token);
    expect(detail).toMatchObject({ status: 6, failReason: "No room on the cluster", refundCents: up.priceDiffCents });
    const [bill] = await service.services.db.select().from(bills).where(eq(bills.id, up.billId));
    expect(bill).toMatchObject({ payState: 20, refundCents: up.priceDiffCents });
    const refunds = await service.services.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.idempotencyKey, `ipfs-upgrade-refund:${up.ipfsUpgradeId}`));
    expect(refunds).toHaveLength(1);
    expect(await inbox(a.userId)).toContainEqual(
      expect.objectContaining({
        textKey: "messages.ipfsUpgradeFailed",
        params: expect.objectContaining({
          capacity: "50 GB",
          reason: "No room on the cluster",
          amount: (up.priceDiffCents / 100).toFixed(2),
        }),
      }),
    );
    expect((await ok("/sys/ipfsBusiness/ipfs/detail", { ipfsServiceId: a.svc.ipfsServiceId }, a.token)).storeUnit).toBe(
      1,
    );
    // A pending upgrade may be refused without taking it (0 → 6), refunded too.
    const again = await ok(
      "/sys/ipfsBusiness/ipfsUpgrade/create",
      { ipfsServiceId: a.svc.ipfsServiceId, toStoreUnit: 10, idempotencyKey: idem() },
      a.token,
    );
    expect(
      await ok(
        "/sys/ops/ipfsUpgrades/decide",
        { ipfsUpgradeId: again.ipfsUpgradeId, decision: "reject", comments: "Refused" },
        op,
      ),
    ).toEqual({ status: 6 });
    expect(await balance(a.token)).toBe(before);
    // Approving needs it taken first.
    const third = await ok(
      "/sys/ipfsBusiness/ipfsUpgrade/create",
      { ipfsServiceId: a.svc.ipfsServiceId, toStoreUnit: 10, idempotencyKey: idem() },
      a.token,
    );
    expect(
      (await post("/sys/ops/ipfsUpgrades/decide", { ipfsUpgradeId: third.ipfsUpgradeId, decision: "approve" }, op))
        .message,
    ).toBe(Msg.IPFS_UPGRADE_NOT_AVAILABLE);
  });

  it("one open upgrade per service; only a larger offered capacity; not with a short balance", async () => {
    const a = await owner("iu1");
    const id = a.svc.ipfsServiceId;
    expect((await request(a.token, id, 1)).message).toBe(Msg.IPFS_UPGRADE_NOT_LARGER);
    expect((await request(a.token, id, 3)).message).toBe(Msg.IPFS_CAPACITY_UNKNOWN);
    const first = await ok(
      "/sys/ipfsBusiness/ipfsUpgrade/create",
      { ipfsServiceId: id, toStoreUnit: 10, idempotencyKey: idem() },
      a.token,
    );
    expect((await request(a.token, id, 50)).message).toBe(Msg.IPFS_UPGRADE_OPEN);
    expect((await ok("/sys/ipfsBusiness/ipfsUpgrade/options", { ipfsServiceId: id }, a.token)).openUpgradeId).toBe(
      first.ipfsUpgradeId,
    );
    await ok("/sys/ops/ipfsUpgrades/take", { ipfsUpgradeId: first.ipfsUpgradeId }, op);
    expect((await request(a.token, id, 50)).message).toBe(Msg.IPFS_UPGRADE_OPEN);
    await ok("/sys/ops/ipfsUpgrades/decide", { ipfsUpgradeId: first.ipfsUpgradeId, decision: "approve" }, op);
    // Now at 10 GB: 10 is no longer larger, 50 is.
    expect((await request(a.token, id, 10)).message).toBe(Msg.IPFS_UPGRADE_NOT_LARGER);
    expect((await request(a.token, id, 50)).code).toBe(0);
    // A balance short of the difference: refused, nothing recorded.
    const poor = await owner("iup", 40);
    expect((await request(poor.token, poor.svc.ipfsServiceId, 1024)).message).toBe(Msg.INSUFFICIENT_BALANCE);
    expect(
      await service.services.db.select().from(ipfsUpgrades).where(eq(ipfsUpgrades.serviceId, poor.svc.ipfsServiceId)),
    ).toHaveLength(0);
  });

  it("unpaid usage bills refuse an upgrade (§5, MSG_30005)", async () => {
    const a = await owner("iub");
    expect((await post("/test/fixtures", { bills: [{ billType: 3, totalCents: 500, cycle: 99 }] }, a.token)).code).toBe(
      0,
    );
    const before = await balance(a.token);
    expect((await request(a.token, a.svc.ipfsServiceId, 10)).message).toBe(Msg.UNPAID_BILLS);
    expect(await balance(a.token)).toBe(before);
  });

  it("a user never sees or upgrades another's service or upgrade; only operators take and decide", async () => {
    const a = await owner("iuw");
    const b = await owner("iux");
    const up = await ok(
      "/sys/ipfsBusiness/ipfsUpgrade/create",
      { ipfsServiceId: a.svc.ipfsServiceId, toStoreUnit: 10, idempotencyKey: idem() },
      a.token,
    );
    expect(
      (await post("/sys/ipfsBusiness/ipfsUpgrade/detail", { ipfsUpgradeId: up.ipfsUpgradeId }, b.token)).message,
    ).toBe(Msg.NOT_FOUND);
    expect(
      (await post("/sys/ipfsBusiness/ipfsUpgrade/list", { ipfsServiceId: a.svc.ipfsServiceId }, b.token)).message,
    ).toBe(Msg.NOT_FOUND);
    expect(
      (await post("/sys/ipfsBusiness/ipfsUpgrade/options", { ipfsServiceId: a.svc.ipfsServiceId }, b.token)).message,
    ).toBe(Msg.NOT_FOUND);
    expect((await request(b.token, a.svc.ipfsServiceId, 50)).message).toBe(Msg.NOT_FOUND);
    for (const [p, body] of [
      ["/sys/ops/ipfsUpgrades/list", {}],
      ["/sys/ops/ipfsUpgrades/take", { ipfsUpgradeId: up.ipfsUpgradeId }],
      ["/sys/ops/ipfsUpgrades/decide", { ipfsUpgradeId: up.ipfsUpgradeId, decision: "approve" }],
    ] as const) {
      const res = await post(p, body, a.token);
      expect(res.code, p).not.toBe(0);
    }
    const [row] = await service.services.db.select().from(ipfsUpgrades).where(eq(ipfsUpgrades.id, up.ipfsUpgradeId));
    expect(row.status).toBe(0);
    const [svc] = await service.services.db.select().from(ipfsServices).where(eq(ipfsServices.id, a.svc.ipfsServiceId));
    expect(svc.storeUnit).toBe(1);
  });

  it("counts the open upgrades in the operations queues", async () => {
    const counts = await ok("/sys/ops/queues/waiting", {}, op);
    expect(counts.IpfsUpgrades).toBeGreaterThan(0);
  });
});
