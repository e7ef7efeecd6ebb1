import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { GasStatus } from "#contract/public-chain-codes.ts";
import { messages } from "#backend/db/tables.ts";
import { alertFirings } from "#backend/domains/alerts/tables.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import chain from "#backend/domains/chain/index.ts";
import {
  recoverGas,
  requireGas,
  startAssignment,
  STUCK_AFTER_MS,
  watchGas,
} from "#backend/domains/public-chain/gas.ts";
import { pubChainAccounts, pubChainGas, pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { callVueapi, inProcessVueapi, loginToken, registeredUser } from "./in-process.ts";
import { okVia } from "../support/envelope.ts";
import { idempotencyKeys } from "../support/ids.ts";

// Issue 12: gas after its request — an interrupted transfer finished or refunded (idempotently), the refund of a
// failed transfer, the low-gas message, and §8 "gas is 0" (backend/domains/public-chain/gas.ts).

let clock = new Date("2026-11-20T02:00:00Z");
const service = inProcessVueapi("pcgas", { TEST_CAPTCHA: "T1", TEST_FIXTURES: "1" }, () => clock);
const idem = idempotencyKeys("pg");
const later = (ms: number) => (clock = new Date(clock.getTime() + ms));

const ok = okVia((p: string, body: object, token: string) => callVueapi(service, p, body, token));

/** A user with a balance, an enabled project and a custody account (gas warning 0.05 ETH). */
async function userWithAccount(prefix: string) {
  const user = await registeredUser(service, prefix);
  const token = await loginToken(service, user.userName, user.password);
  await ok("/test/fixtures", { grantCents: 10_000 }, token);
  const orgs = await ok(
    "/sys/pubChainOrg/queryPubOrgList",
    { page: { pageSize: 10, pageIndex: 1, condition: { orgName: "Shanghai" } } },
    token,
  );
  const plan = await ok("/sys/opc/plan/buy", { orgId: orgs.page.rows[0].orgId, idempotencyKey: idem() }, token);
  const project = await ok(
    "/sys/opc/project/create",
    { planId: plan.planId, name: `${prefix} project`, framework: "evm", dailyRequests: "1000" },
    token,
  );
  for (
    let i = 0;
    i < 20 && (await ok("/sys/opc/project/detail", { projectId: project.projectId }, token)).status !== 11;
    i++
  )
    await service.runJobs();
  await ok("/sys/opc/project/enable", { projectId: project.projectId }, token);
  const account = await ok(
    "/sys/opc/account/create",
    { projectId: project.projectId, name: `${prefix} wallet`, keyType: "1", gasWarning: "0.05" },
    token,
  );
  const [row] = await service.services.db
    .select()
    .from(pubChainAccounts)
    .where(eq(pubChainAccounts.id, account.accountId));
  return { token, projectId: project.projectId as number, account: row, userId: row.userId };
}

const balanceOf = async (token: string) => (await ok("/sys/account/summary", {}, token)).balanceCents as number;
const gasRow = async (id: number) =>
  (await service.services.db.select().from(pubChainGas).where(eq(pubChainGas.id, id)))[0];
const onChain = async (address: string) =>
  BigInt(
    String(
      await chain.api.request(service.services, chain.api.OPEN_ALLIANCE, {
        method: "eth_getBalance",
        params: [address, "latest"],
      }),
    ),
  );

describe("gas after its request", () => {
  it("finishes a transfer interrupted after it reached the chain and refunds one interrupted before it, once each", async () => {
    const { token, account, userId } = await userWithAccount("pcrec");
    const project = { name: "pcrec project" };
    const before = await balanceOf(token);

    // Crash 1: the bill is paid and the transfer reached the chain, but the process died before recording it.
    const reached = await startAssignment(service.services, {
      userId,
      account,
      project,
      amountCents: 300,
      idempotencyKey: idem(),
      now: clock,
    });
    const hash = await chain.api.fund(
      service.services,
      chain.api.OPEN_ALLIANCE,
      account.address,
      BigInt(reached.row.wei),
    );
    // Crash 2: the bill is paid, the process died before the transfer.
    const lost = await startAssignment(service.services, {
      userId,
      account,
      project,
      amountCents: 200,
      idempotencyKey: idem(),
      now: clock,
    });
    expect(await balanceOf(token)).toBe(before - 500);

    // A request still transferring is left alone.
    expect(await recoverGas(service.services, clock)).toEqual({ finished: 0, refunded: 0 });
    later(STUCK_AFTER_MS + 1_000);
    expect(await recoverGas(service.services, clock)).toEqual({ finished: 1, refunded: 1 });
    expect(await gasRow(reached.row.id)).toMatchObject({ status: GasStatus.DONE, txHash: hash });
    expect(await gasRow(lost.row.id)).toMatchObject({
      status: GasStatus.REFUNDED,
      failReason: expect.stringContaining("interrupted"),
    });
    expect(await balanceOf(token)).toBe(before - 300);
    expect(await onChain(account.address)).toBe(BigInt(reached.row.wei));
    const [lostBill] = await service.services.db.select().from(bills).where(eq(bills.id, lost.row.billId));
    expect(lostBill).toMatchObject({ payState: 20, refundCents: 200 });

    // Idempotent: a second sweep (another process, a restart) changes nothing.
    later(60_000);
    expect(await recoverGas(service.services, clock)).toEqual({ finished: 0, refunded: 0 });
    expect(await balanceOf(token)).toBe(before - 300);
    const entries = (await ok("/sys/account/transactions", { page: { pageSize: 100, pageIndex: 1 } }, token)).page
      .rows as any[];
    expect(
      entries
        .filter((e) => e.billId === lost.row.billId)
        .map((e) => e.kind)
        .sort(),
    ).toEqual(["bill_payment", "refund"]);
    expect(entries.filter((e) => e.billId === reached.row.billId).map((e) => e.kind)).toEqual(["bill_payment"]);
  });

  it("refunds a transfer the chain refused: one refund entry, the bill refunded, the same key answers it again", async () => {
    const { token, account, projectId } = await userWithAccount("pcref");
    // The project's chain is gone: the transfer fails.
    await service.services.db
      .update(pubChainProjects)
      .set({ chain: "no-such-chain" })
      .where(eq(pubChainProjects.id, projectId));
    const before = await balanceOf(token);
    const key = idem();
    const failed = await callVueapi(
      service,
      "/sys/opc/account/assignGas",
      { accountId: account.id, amount: "1.50", idempotencyKey: key },
      token,
    );
    expect(failed.message).toBe(Msg.GAS_TRANSFER_FAILED);
    expect(await balanceOf(token)).toBe(before);
    const again = await ok(
      "/sys/opc/account/assignGas",
      { accountId: account.id, amount: "1.50", idempotencyKey: key },
      token,
    );
    expect(again).toMatchObject({ status: GasStatus.REFUNDED, replayed: true });
    expect(await balanceOf(token)).toBe(before);
    const bill = await ok("/sys/system/clientInfo/h5billDetail", { billId: again.billId }, token);
    expect(JSON.stringify(bill)).toContain('"billType":50');
    const entries = (await ok("/sys/account/transactions", { page: { pageSize: 100, pageIndex: 1 } }, token)).page
      .rows as any[];
    expect(
      entries
        .filter((e) => e.billId === again.billId)
        .map((e) => e.kind)
        .sort(),
    ).toEqual(["bill_payment", "refund"]);
  });

  it("sends one message when the gas falls below the warning value, again only after it rose and fell; gas 0 is refused", async () => {
    const { token, account, userId } = await userWithAccount("pcwatch");
    await expect(requireGas(service.services, userId, account.id)).rejects.toMatchObject({ messageKey: Msg.GAS_ZERO });
    const lowMessages = () =>
      service.services.db
        .select()
        .from(messages)
        .where(and(eq(messages.userId, userId), eq(messages.textKey, "messages.gasLow")));

    await watchGas(service.services, clock);
    await watchGas(service.services, clock);
    const first = await lowMessages();
    expect(first).toHaveLength(1);
    expect(first[0].params).toMatchObject({
      account: "pcwatch wallet",
      project: "pcwatch project",
      gas: "0",
      warning: "0.05",
    });

    // $10 buys 0.1 ETH: above the warning value, the watch clears its mark.
    await ok("/sys/opc/account/assignGas", { accountId: account.id, amount: "10", idempotencyKey: idem() }, token);
    expect(await requireGas(service.services, userId, account.id)).toBe(10n ** 17n);
    await watchGas(service.services, clock);
    expect(
      (await service.services.db.select().from(pubChainAccounts).where(eq(pubChainAccounts.id, account.id)))[0]
        .gasLowSince,
    ).toBeNull();
    expect(await lowMessages()).toHaveLength(1);

    // The warning value raised above the gas: low again, a second message.
    await service.services.db
      .update(pubChainAccounts)
      .set({ gasWarningWei: (10n ** 18n).toString() })
      .where(eq(pubChainAccounts.id, account.id));
    await watchGas(service.services, clock);
    expect(await lowMessages()).toHaveLength(2);
    // Each fall is one gas alert of the alerts framework (docs/decisions/090): in the history, its message linked to it.
    const firings = await service.services.db
      .select()
      .from(alertFirings)
      .where(and(eq(alertFirings.kind, "gas"), eq(alertFirings.subjectId, account.id)));
    expect(firings.map((f) => [f.accountId, f.subjectName, f.valueCents, f.limitCents])).toEqual([
      [userId, "pcwatch wallet", 0, 5e7],
      [userId, "pcwatch wallet", 1e8, 1e9],
    ]);
    expect((await lowMessages()).map((m) => m.refKind)).toEqual(["alert", "alert"]);
  });
});
