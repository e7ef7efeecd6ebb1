import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { activeUser, call, login } from "./client.ts";

import { COUNTER_SOURCE } from "./fixtures/counter-contract.ts";
import { okVia } from "../support/envelope.ts";
import { idempotencyKeys } from "../support/ids.ts";
import { waitFor } from "../support/wait.ts";
import { deployedProject } from "./public-chain-project.ts";

// docs/decisions/033: contract deployment from a project's custody account, over HTTP against the test server.

const idem = idempotencyKeys("ct");

const ok = okVia((p: string, body: unknown, token: string) => call(p, body, token));

const GREETER = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Greeter {
  event Greeted(address indexed by, string text);
  string public greeting;
  constructor(string memory text) { greeting = text; emit Greeted(msg.sender, text); }
  function twice(uint256 x) external pure returns (uint256) { return x * 2; }
}`;

const settled = (token: string, contractId: number) =>
  waitFor(
    "contract settled",
    () => ok("/sys/opc/contract/detail", { contractId }, token),
    (d: any) => d.status === 2 || d.status === 3,
  );

describe("contract deployment", () => {
  let token: string;
  let projectId: number;
  let custodyId: number;
  let emptyId: number;
  beforeAll(async () => {
    token = (await activeUser("ct")).token;
    await ok("/test/fixtures", { grantCents: 10_000 }, token);
    projectId = await deployedProject(token, "contracts");
    custodyId = (
      await ok("/sys/opc/account/create", { projectId, name: "deployer", keyType: "1", gasWarning: "0.01" }, token)
    ).accountId;
    emptyId = (
      await ok("/sys/opc/account/create", { projectId, name: "empty", keyType: "1", gasWarning: "0.01" }, token)
    ).accountId;
    await ok("/sys/opc/account/assignGas", { accountId: custodyId, amount: "5.00", idempotencyKey: idem() }, token);
  }, 120_000);

  it("refuses bad input with its field and §5/§8 message: name spaces, gas 0, not custody, bad ABI, bad arguments", async () => {
    const base = { projectId, accountId: custodyId, sourceKind: "source", source: COUNTER_SOURCE };
    const spaced = await call("/sys/opc/contract/create", { ...base, name: " Counter" }, token);
    expect(spaced.message).toBe(Msg.INVALID_PARAMS);
    expect(JSON.stringify(spaced.data)).toContain("contracts:validation.nameSpaces");
    expect((await call("/sys/opc/contract/create", { ...base, name: "Counter " }, token)).message).toBe(
      Msg.INVALID_PARAMS,
    );
    expect(
      (await call("/sys/opc/contract/create", { ...base, name: "Counter", accountId: emptyId }, token)).message,
    ).toBe(Msg.GAS_ZERO);
    const watched = await ok(
      "/sys/opc/account/create",
      { projectId, name: "watched", keyType: "3", address: `0x${randomBytes(20).toString("hex")}`, gasWarning: "0.01" },
      token,
    );
    expect(
      (await call("/sys/opc/contract/create", { ...base, name: "Counter", accountId: watched.accountId }, token))
        .message,
    ).toBe(Msg.CONTRACT_ACCOUNT_NOT_CUSTODY);
    const abiBase = { projectId, accountId: custodyId, name: "raw", sourceKind: "abi", bytecode: "0x00" };
    expect((await call("/sys/opc/contract/create", { ...abiBase, abi: "{not json" }, token)).message).toBe(
      Msg.CONTRACT_BAD_ABI,
    );
    expect(
      (await call("/sys/opc/contract/create", { ...abiBase, abi: JSON.stringify([{ type: "nonsense" }]) }, token))
        .message,
    ).toBe(Msg.CONTRACT_BAD_ABI);
    const ctorAbi = JSON.stringify([
      { type: "constructor", inputs: [{ name: "n", type: "uint8" }], stateMutability: "nonpayable" },
    ]);
    expect(
      (await call("/sys/opc/contract/create", { ...abiBase, abi: ctorAbi, constructorArgs: ["256"] }, token)).message,
    ).toBe(Msg.CONTRACT_BAD_ARGUMENTS);
    expect((await call("/sys/opc/contract/create", { ...abiBase, abi: ctorAbi, bytecode: "0x0" }, token)).message).toBe(
      Msg.INVALID_PARAMS,
    );
    expect((await ok("/sys/opc/contract/list", { projectId }, token)).page.total).toBe(0);
  });

  it("compiles, deploys from the custody account with real gas (0 → 1 → 2: address, hash, block), one at a time, publishes the project, calls a read function and decodes events", async () => {
    const created = await ok(
      "/sys/opc/contract/create",
      {
        projectId,
        accountId: custodyId,
        name: "Greeter",
        sourceKind: "source",
        source: GREETER,
        constructorArgs: ["hello 你好"],
      },
      token,
    );
    expect(created.status).toBe(0);
    // One deployment at a time per project; a contract being deployed blocks edits.
    const second = await call(
      "/sys/opc/contract/create",
      { projectId, accountId: custodyId, name: "Counter 2", sourceKind: "source", source: COUNTER_SOURCE },
      token,
    );
    const renamed = await call("/sys/opc/contract/update", { contractId: created.contractId, name: "renamed" }, token);
    const done = await settled(token, created.contractId);
    expect(done, done.failReason).toMatchObject({
      status: 2,
      mainContract: "Greeter",
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      blockNumber: expect.any(Number),
    });
    if (second.code === 0) expect.fail("a second deployment was accepted while the first was under way");
    expect(second.message).toBe(Msg.CONTRACT_DEPLOYMENT_UNDER_WAY);
    if (renamed.code !== 0) expect(renamed.message).toBe(Msg.CONTRACT_BEING_DEPLOYED);
    expect(done.abi.some((e: any) => e.name === "greeting")).toBe(true);
    expect(BigInt(done.gasUsed)).toBeGreaterThan(21_000n);
    // The first contract of a project still to be enabled publishes it (11 → 15).
    expect((await ok("/sys/opc/project/detail", { projectId }, token)).status).toBe(15);
    // The account paid the gas: its balance dropped below what was assigned.
    const account = await ok("/sys/opc/account/detail", { accountId: custodyId }, token);
    expect(BigInt(account.gasWei)).toBeLessThan(5n * 100n * 10n ** 14n);

    expect(
      await ok("/sys/opc/contract/call", { contractId: created.contractId, functionName: "greeting", args: [] }, token),
    ).toMatchObject({ signature: "greeting()", outputs: [{ type: "string", value: "hello 你好" }] });
    expect(
      (
        await ok(
          "/sys/opc/contract/call",
          { contractId: created.contractId, functionName: "twice", args: ["21"] },
          token,
        )
      ).outputs,
    ).toEqual([{ name: "", type: "uint256", value: "42" }]);
    const badArg = await call(
      "/sys/opc/contract/call",
      { contractId: created.contractId, functionName: "twice", args: ["-1"] },
      token,
    );
    expect(badArg.message).toBe(Msg.CONTRACT_BAD_ARGUMENTS);
    expect(
      (
        await call(
          "/sys/opc/contract/call",
          { contractId: created.contractId, functionName: "nothing", args: [] },
          token,
        )
      ).message,
    ).toBe(Msg.CONTRACT_NO_SUCH_FUNCTION);
    const events = await ok("/sys/opc/contract/events", { contractId: created.contractId }, token);
    expect(events.page.total).toBe(1);
    expect(events.page.rows[0]).toMatchObject({
      eventName: "Greeted",
      blockNumber: done.blockNumber,
      txHash: done.txHash,
      args: [
        { name: "by", value: done.accountAddress },
        { name: "text", value: "hello 你好" },
      ],
    });
    expect(
      (await ok("/sys/opc/contract/update", { contractId: created.contractId, name: "Counter v1" }, token)).name,
    ).toBe("Counter v1");
    const list = await ok("/sys/opc/contract/list", { projectId }, token);
    expect(list).toMatchObject({
      busy: false,
      page: { total: 1, rows: [{ contractId: created.contractId, name: "Counter v1", status: 2 }] },
    });
  }, 120_000);

  it("sends a write function from a custody account (as the IDE does): the receipt and the decoded events", async () => {
    const created = await ok(
      "/sys/opc/contract/create",
      { projectId, accountId: custodyId, name: "Counter", sourceKind: "source", source: COUNTER_SOURCE },
      token,
    );
    const done = await settled(token, created.contractId);
    expect(done.status, done.failReason).toBe(2);
    const written = await ok(
      "/sys/opc/contract/write",
      { contractId: created.contractId, signature: "add(uint256)", args: ["5"], accountId: custodyId },
      token,
    );
    expect(written).toMatchObject({
      signature: "add(uint256)",
      kind: "write",
      transaction: { hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), to: expect.any(String) },
      receipt: { status: "success", blockNumber: expect.any(Number) },
    });
    expect(written.events).toHaveLength(1);
    expect(written.events[0]).toMatchObject({ eventName: "Counted" });
    expect(written.events[0].args.find((a: any) => a.name === "value")?.value).toBe("5");
    expect(
      (await ok("/sys/opc/contract/call", { contractId: created.contractId, functionName: "value", args: [] }, token))
        .outputs[0].value,
    ).toBe("5");
    // A read function is not sent; a stranger's contract is not found.
    const read = await call(
      "/sys/opc/contract/write",
      { contractId: created.contractId, signature: "value()", args: [], accountId: custodyId },
      token,
    );
    expect(read.message).toBe(Msg.CONTRACT_NO_SUCH_FUNCTION);
    const stranger = (await activeUser("ctw")).token;
    const foreign = await call(
      "/sys/opc/contract/write",
      { contractId: created.contractId, signature: "add(uint256)", args: ["1"], accountId: custodyId },
      stranger,
    );
    expect(foreign.message).toBe(Msg.NOT_FOUND);
  });

  it("an ABI with bytecode whose constructor reverts fails with the chain's reason; a source that does not compile fails with the compiler's; a failed one is redeployed", async () => {
    const broken = await ok(
      "/sys/opc/contract/create",
      {
        projectId,
        accountId: custodyId,
        name: "Broken",
        sourceKind: "source",
        source: "pragma solidity 0.8.37; contract Broken { uint x = ; }",
      },
      token,
    );
    const failed = await settled(token, broken.contractId);
    expect(failed.status).toBe(3);
    expect(failed.failReason).toMatch(/compilation failed[\s\S]*ParserError/);
    // init code that reverts at once: PUSH1 0 PUSH1 0 REVERT
    const reverting = await ok(
      "/sys/opc/contract/create",
      { projectId, accountId: custodyId, name: "Reverting", sourceKind: "abi", abi: "[]", bytecode: "0x60006000fd" },
      token,
    );
    const refused = await settled(token, reverting.contractId);
    expect(refused.status).toBe(3);
    expect(refused.failReason).toMatch(/revert/i);
    expect(
      (await call("/sys/opc/contract/call", { contractId: reverting.contractId, functionName: "x", args: [] }, token))
        .message,
    ).toBe(Msg.CONTRACT_NOT_DEPLOYED);
    expect(
      (
        await call(
          "/sys/opc/contract/redeploy",
          {
            contractId: (await ok("/sys/opc/contract/list", { projectId }, token)).page.rows.find(
              (r: any) => r.status === 2,
            ).contractId,
          },
          token,
        )
      ).message,
    ).toBe(Msg.CONTRACT_ACTION_NOT_AVAILABLE);
    const again = await ok("/sys/opc/contract/redeploy", { contractId: reverting.contractId }, token);
    expect(again.status).toBe(0);
    expect((await settled(token, reverting.contractId)).status).toBe(3);
  }, 120_000);

  it("the demo: democompany's project holds the demo token, deployed from its custody account, readable and with its Transfer event", async () => {
    const demo = (await login("democompany", "Demo12!@pass")).data.token as string;
    const [project] = (await ok("/sys/opc/project/list", { pageSize: 10 }, demo)).page.rows;
    const list = await ok("/sys/opc/contract/list", { projectId: project.projectId }, demo);
    expect(list.page.rows).toMatchObject([
      {
        name: "Demo Token",
        mainContract: "DemoToken",
        status: 2,
        address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      },
    ]);
    const token = list.page.rows[0];
    const read = async (functionName: string, args: string[] = []) =>
      (await ok("/sys/opc/contract/call", { contractId: token.contractId, functionName, args }, demo)).outputs[0].value;
    expect(await read("name")).toBe("Demo Token");
    expect(await read("symbol")).toBe("DEMO");
    expect(await read("decimals")).toBe("18");
    expect(await read("totalSupply")).toBe((10n ** 24n).toString());
    expect(await read("balanceOf", [token.accountAddress])).toBe((10n ** 24n).toString());
    const events = await ok("/sys/opc/contract/events", { contractId: token.contractId }, demo);
    expect(events.page.rows).toMatchObject([
      {
        eventName: "Transfer",
        args: [
          { name: "from", value: "0x0000000000000000000000000000000000000000" },
          { name: "to", value: token.accountAddress },
          { name: "value", value: (10n ** 24n).toString() },
        ],
      },
    ]);
  });

  it("another user sees and calls none of it", async () => {
    const other = (await activeUser("ctx")).token;
    const [mine] = (await ok("/sys/opc/contract/list", { projectId }, token)).page.rows;
    expect((await call("/sys/opc/contract/detail", { contractId: mine.contractId }, other)).message).toBe(
      Msg.NOT_FOUND,
    );
    expect(
      (await call("/sys/opc/contract/call", { contractId: mine.contractId, functionName: "value", args: [] }, other))
        .message,
    ).toBe(Msg.NOT_FOUND);
    expect((await call("/sys/opc/contract/list", { projectId }, other)).message).toBe(Msg.NOT_FOUND);
  });
});
