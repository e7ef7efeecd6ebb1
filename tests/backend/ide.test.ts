import { beforeAll, describe, expect, inject, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { IDE_GRANT_MINUTES } from "#contract/ide-codes.ts";
import { CONTRACT_BUSY_STATUSES } from "#contract/contracts-codes.ts";
import { activeUser, call } from "./client.ts";
import { callVueapi, inProcessVueapi, insertedUser, sessionOf } from "./in-process.ts";

import { okVia } from "../support/envelope.ts";
import { idempotencyKeys } from "../support/ids.ts";
import { waitFor } from "../support/wait.ts";
import { deployedProject } from "./public-chain-project.ts";

// docs/decisions/044: the online IDE over HTTP against the test server (compile, deploy, call on the chain),
// and its short-lived authorisation in a service of its own whose clock the test moves.

const idem = idempotencyKeys("ide");

const ok = okVia((p: string, body: unknown, token: string) => call(p, body, token));

const BROKEN_STORAGE = (text: string) => text.replace("value = next;", "value = next"); // a missing semicolon

describe("the online IDE", () => {
  let token: string;
  let otherToken: string;
  let projectId: number;
  let custodyId: number;
  let workspaceId: number;
  let files: any[];
  beforeAll(async () => {
    token = (await activeUser("ide")).token;
    otherToken = (await activeUser("ideo")).token;
    await ok("/test/fixtures", { grantCents: 10_000 }, token);
    projectId = await deployedProject(token, "ide");
    custodyId = (
      await ok("/sys/opc/account/create", { projectId, name: "ide deployer", keyType: "1", gasWarning: "0.01" }, token)
    ).accountId;
    await ok("/sys/opc/account/assignGas", { accountId: custodyId, amount: "5.00", idempotencyKey: idem() }, token);
    await ok("/sys/ide/grant", {}, token);
    await ok("/sys/ide/grant", {}, otherToken);
  }, 120_000);

  it("lists the Solidity samples and starts a workspace from one with its files; manages workspaces", async () => {
    const templates = await ok("/sys/ide/template/list", {}, token);
    expect(templates.map((t: any) => t.templateId)).toEqual(
      expect.arrayContaining(["storage", "erc20", "events", "empty"]),
    );
    expect((await call("/sys/ide/workspace/create", { name: "x", templateId: "nope" }, token)).message).toBe(
      Msg.IDE_TEMPLATE_UNKNOWN,
    );
    expect((await call("/sys/ide/workspace/create", { name: "  ", templateId: "storage" }, token)).message).toBe(
      Msg.INVALID_PARAMS,
    );
    const w = await ok("/sys/ide/workspace/create", { name: "Storage", templateId: "storage" }, token);
    workspaceId = w.workspaceId;
    expect(w.files).toBe(1);
    const renamed = await ok("/sys/ide/workspace/rename", { workspaceId, name: "My storage" }, token);
    expect(renamed.name).toBe("My storage");
    const list = await ok("/sys/ide/workspace/list", { pageIndex: 1, pageSize: 10 }, token);
    expect(list.page.rows.map((r: any) => r.name)).toContain("My storage");
    const open = await ok("/sys/ide/workspace/open", { workspaceId }, token);
    files = open.files;
    expect(files.map((f: any) => [f.path, f.folder])).toEqual([
      ["contracts", true],
      ["contracts/SimpleStorage.sol", false],
    ]);
    const gone = await ok("/sys/ide/workspace/create", { name: "Throwaway", templateId: "empty" }, token);
    await ok("/sys/ide/workspace/delete", { workspaceId: gone.workspaceId }, token);
    expect((await call("/sys/ide/workspace/open", { workspaceId: gone.workspaceId }, token)).message).toBe(
      Msg.NOT_FOUND,
    );
  });

  it("offers the chaincode market's Solidity entries as templates, and a workspace from one compiles", async () => {
    const templates = await ok("/sys/ide/template/list", {}, token);
    const market = templates.filter((t: any) => t.origin === "market");
    // The market ships two Solidity packages (backend/domains/market/samples.ts); Go and Node.js entries are not offered.
    expect(market.length).toBeGreaterThanOrEqual(2);
    for (const t of market) {
      expect(t.templateId).toMatch(/^market:\d+$/);
      expect(t.title).toBeTruthy();
      expect(t.files.every((f: string) => f.endsWith(".sol"))).toBe(true);
    }
    const w = await ok(
      "/sys/ide/workspace/create",
      { name: "From the market", templateId: market[0].templateId },
      token,
    );
    const compiled = await ok("/sys/ide/compile", { workspaceId: w.workspaceId }, token);
    expect(compiled.ok, JSON.stringify(compiled.diagnostics)).toBe(true);
    expect(compiled.compiled.length).toBeGreaterThan(0);
    await ok("/sys/ide/workspace/delete", { workspaceId: w.workspaceId }, token);
  });

  it("creates, renames (folders with their files), saves and deletes files; paths are checked", async () => {
    const note = await ok("/sys/ide/file/create", { workspaceId, path: "docs/notes/readme.md" }, token);
    expect((await call("/sys/ide/file/create", { workspaceId, path: "docs/notes/readme.md" }, token)).message).toBe(
      Msg.IDE_PATH_TAKEN,
    );
    expect((await call("/sys/ide/file/create", { workspaceId, path: "../etc/passwd" }, token)).message).toBe(
      Msg.INVALID_PARAMS,
    );
    expect(
      (await call("/sys/ide/file/create", { workspaceId, path: "docs/notes/readme.md/x.sol" }, token)).message,
    ).toBe(Msg.IDE_BAD_PARENT);
    await ok("/sys/ide/file/save", { workspaceId, fileId: note.fileId, content: "hello" }, token);
    const opened = await ok("/sys/ide/workspace/open", { workspaceId }, token);
    const docs = opened.files.find((f: any) => f.path === "docs");
    expect(docs.folder).toBe(true);
    expect((await call("/sys/ide/file/save", { workspaceId, fileId: docs.fileId, content: "x" }, token)).message).toBe(
      Msg.IDE_NOT_A_FILE,
    );
    await ok("/sys/ide/file/rename", { workspaceId, fileId: docs.fileId, path: "manual" }, token);
    const after = await ok("/sys/ide/workspace/open", { workspaceId }, token);
    const moved = after.files.find((f: any) => f.fileId === note.fileId);
    expect(moved).toMatchObject({ path: "manual/notes/readme.md", content: "hello" });
    await ok("/sys/ide/file/delete", { workspaceId, fileId: docs.fileId }, token);
    const last = await ok("/sys/ide/workspace/open", { workspaceId }, token);
    expect(last.files.map((f: any) => f.path)).toEqual(["contracts", "contracts/SimpleStorage.sol"]);
  });

  it("compile errors carry their file and line; a fixed file compiles and its ABI and bytecode are kept", async () => {
    const file = files.find((f: any) => f.path === "contracts/SimpleStorage.sol");
    const broken = BROKEN_STORAGE(file.content);
    const line = broken.split("\n").findIndex((l: string) => l.includes("value = next") && !l.includes(";")) + 1;
    await ok("/sys/ide/file/save", { workspaceId, fileId: file.fileId, content: broken }, token);
    const failed = await ok("/sys/ide/compile", { workspaceId }, token);
    expect(failed.ok).toBe(false);
    const error = failed.diagnostics.find((d: any) => d.severity === "error");
    expect(error).toMatchObject({ file: "contracts/SimpleStorage.sol", line: expect.any(Number) });
    // solc reports the missing ';' where the next token starts: the line after the statement at the latest.
    expect([line, line + 1]).toContain(error.line);
    const opened = await ok("/sys/ide/workspace/open", { workspaceId }, token);
    expect(opened.diagnostics[0]).toMatchObject({ file: "contracts/SimpleStorage.sol", line: error.line });
    // The last good build was of another source: it is no longer offered, nor deployable (issue 30).
    expect(opened.compiled).toEqual([]);
    const ref = "contracts/SimpleStorage.sol:SimpleStorage";
    expect(
      (await call("/sys/ide/deploy", { workspaceId, contract: ref, network: "test", constructorArgs: [] }, token))
        .message,
    ).toBe(Msg.IDE_NOT_COMPILED);
    await ok("/sys/ide/file/save", { workspaceId, fileId: file.fileId, content: file.content }, token);
    const fixed = await ok("/sys/ide/compile", { workspaceId }, token);
    expect(fixed.ok, JSON.stringify(fixed.diagnostics)).toBe(true);
    expect(fixed.compiled).toHaveLength(1);
    expect(fixed.compiled[0]).toMatchObject({
      file: "contracts/SimpleStorage.sol",
      name: "SimpleStorage",
      bytecode: expect.stringMatching(/^0x[0-9a-f]{100,}$/),
    });
    expect(fixed.compiled[0].abi.some((e: any) => e.name === "set")).toBe(true);
  });

  it("resolves imports between workspace files and from OpenZeppelin", async () => {
    const events = await ok("/sys/ide/workspace/create", { name: "Guestbook", templateId: "events" }, token);
    const compiled = await ok("/sys/ide/compile", { workspaceId: events.workspaceId }, token);
    expect(compiled.ok, JSON.stringify(compiled.diagnostics)).toBe(true);
    expect(compiled.compiled.map((c: any) => c.name)).toEqual(expect.arrayContaining(["Guestbook", "Counters"]));
    const erc20 = await ok("/sys/ide/workspace/create", { name: "Token", templateId: "erc20" }, token);
    const token20 = await ok("/sys/ide/compile", { workspaceId: erc20.workspaceId }, token);
    expect(token20.ok, JSON.stringify(token20.diagnostics)).toBe(true);
    expect(token20.compiled.map((c: any) => c.name)).toEqual(["PortalToken"]);
    expect(token20.compiled[0].abi.some((e: any) => e.name === "transfer")).toBe(true);
  }, 60_000);

  it("deploys to the project from the custody account (one at a time), then a write changes state a read returns, with decoded events", async () => {
    const ref = "contracts/SimpleStorage.sol:SimpleStorage";
    expect(
      (
        await call(
          "/sys/ide/deploy",
          { workspaceId, contract: "contracts/Nope.sol:Nope", projectId, accountId: custodyId, constructorArgs: ["1"] },
          token,
        )
      ).message,
    ).toBe(Msg.IDE_NOT_COMPILED);
    const deployment = await ok(
      "/sys/ide/deploy",
      { workspaceId, contract: ref, projectId, accountId: custodyId, constructorArgs: ["41"] },
      token,
    );
    expect(deployment).toMatchObject({ name: "SimpleStorage", projectId });
    // Pending or already deploying: the test server's job loop may take the deployment before the answer is read.
    expect(CONTRACT_BUSY_STATUSES).toContain(deployment.status);
    const second = await call(
      "/sys/ide/deploy",
      { workspaceId, contract: ref, projectId, accountId: custodyId, constructorArgs: ["1"] },
      token,
    );
    const done = await waitFor(
      "deployed",
      () => ok("/sys/opc/contract/detail", { contractId: deployment.contractId }, token),
      (d: any) => d.status === 2 || d.status === 3,
    );
    expect(done.status, done.failReason).toBe(2);
    if (second.code === 0) expect.fail("a second deployment was accepted while the first was under way");
    expect(second.message).toBe(Msg.CONTRACT_DEPLOYMENT_UNDER_WAY);
    const contractId = deployment.contractId;
    const read = await ok("/sys/ide/call", { workspaceId, contractId, signature: "get()", args: [] }, token);
    expect(read).toMatchObject({ kind: "read", outputs: [{ type: "uint256", value: "41" }] });
    expect(
      (await call("/sys/ide/call", { workspaceId, contractId, signature: "set(uint256)", args: ["7"] }, token)).message,
    ).toBe(Msg.IDE_ACCOUNT_REQUIRED);
    const write = await ok(
      "/sys/ide/call",
      { workspaceId, contractId, signature: "set(uint256)", args: ["7"], accountId: custodyId },
      token,
    );
    expect(write.transaction.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(write.transaction.to.toLowerCase()).toBe(done.address.toLowerCase());
    expect(write.receipt).toMatchObject({ status: "success", blockNumber: expect.any(Number) });
    expect(BigInt(write.receipt.gasUsed)).toBeGreaterThan(21_000n);
    expect(write.events).toEqual([
      expect.objectContaining({
        eventName: "ValueChanged",
        args: expect.arrayContaining([
          { name: "previous", value: "41" },
          { name: "current", value: "7" },
        ]),
      }),
    ]);
    expect(
      (await ok("/sys/ide/call", { workspaceId, contractId, signature: "get()", args: [] }, token)).outputs[0].value,
    ).toBe("7");
    expect(
      (
        await call(
          "/sys/ide/call",
          { workspaceId, contractId, signature: "set(uint256)", args: ["-1"], accountId: custodyId },
          token,
        )
      ).message,
    ).toBe(Msg.CONTRACT_BAD_ARGUMENTS);
    const open = await ok("/sys/ide/workspace/open", { workspaceId }, token);
    expect(open.deployments[0]).toMatchObject({ contractId, status: 2, address: done.address });
  }, 120_000);

  it("deploys to the test network from the user's test account (one at a time), then a write and a read work on it", async () => {
    const ref = "contracts/SimpleStorage.sol:SimpleStorage";
    const both = await Promise.all(
      [0, 1].map((i) =>
        call<any>(
          "/sys/ide/deploy",
          { workspaceId, contract: ref, network: "test", constructorArgs: [String(40 + i)] },
          token,
        ),
      ),
    );
    const done = both.filter((r) => r.code === 0);
    expect(done, JSON.stringify(both)).toHaveLength(1);
    expect(both.find((r) => r.code !== 0)!.message).toBe(Msg.IDE_TEST_DEPLOY_UNDER_WAY);
    const deployment = done[0]!.data;
    expect(deployment).toMatchObject({
      network: "test",
      chainName: expect.stringMatching(/^test-network/),
      status: 2,
      projectId: null,
    });
    expect(deployment.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(deployment.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    // The receipt is the chain's: read back over the test network's own JSON-RPC.
    const receipt = await fetch(`${inject("baseUrl")}/chain/test-rpc/${deployment.chainName}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getTransactionReceipt", params: [deployment.txHash] }),
    }).then((r) => r.json());
    expect(receipt.result).toMatchObject({ status: "0x1", contractAddress: deployment.address.toLowerCase() });
    expect(Number(receipt.result.blockNumber)).toBe(deployment.blockNumber);
    const contractId = deployment.contractId;
    const first = await ok(
      "/sys/ide/call",
      { workspaceId, network: "test", contractId, signature: "get()", args: [] },
      token,
    );
    const initial = first.outputs[0].value;
    expect(["40", "41"]).toContain(initial);
    const write = await ok(
      "/sys/ide/call",
      { workspaceId, network: "test", contractId, signature: "set(uint256)", args: ["9"] },
      token,
    );
    expect(write.transaction.to.toLowerCase()).toBe(deployment.address.toLowerCase());
    expect(write.transaction.from.toLowerCase()).toBe(deployment.accountName.toLowerCase());
    expect(write.receipt).toMatchObject({ status: "success" });
    expect(write.events).toEqual([
      expect.objectContaining({
        eventName: "ValueChanged",
        args: expect.arrayContaining([
          { name: "previous", value: initial },
          { name: "current", value: "9" },
        ]),
      }),
    ]);
    expect(
      (await ok("/sys/ide/call", { workspaceId, network: "test", contractId, signature: "get()", args: [] }, token))
        .outputs[0].value,
    ).toBe("9");
    // Listed with the project deployments, the network named; another user's call is a 404; the id is not a project contract's.
    const open = await ok("/sys/ide/workspace/open", { workspaceId }, token);
    expect(open.deployments.find((d: any) => d.network === "test" && d.contractId === contractId)).toMatchObject({
      status: 2,
      address: deployment.address,
    });
    expect(open.deployments.some((d: any) => d.network === "project")).toBe(true);
    expect(
      (
        await call(
          "/sys/ide/call",
          { workspaceId, network: "test", contractId, signature: "get()", args: [] },
          otherToken,
        )
      ).message,
    ).toBe(Msg.NOT_FOUND);
    expect(
      (
        await call(
          "/sys/ide/call",
          { workspaceId, network: "test", contractId: contractId + 10_000, signature: "get()", args: [] },
          token,
        )
      ).message,
    ).toBe(Msg.NOT_FOUND);
    // A later deployment is accepted once the first is done.
    expect(
      (await ok("/sys/ide/deploy", { workspaceId, contract: ref, network: "test", constructorArgs: ["1"] }, token))
        .status,
    ).toBe(2);
  }, 120_000);

  it("another user's workspace, file and deployment are a 404", async () => {
    const open = await ok("/sys/ide/workspace/open", { workspaceId }, token);
    const fileId = open.files[1].fileId;
    const contractId = open.deployments[0].contractId;
    const mine = await ok("/sys/ide/workspace/create", { name: "Other", templateId: "empty" }, otherToken);
    for (const [p, body] of [
      ["/sys/ide/workspace/open", { workspaceId }],
      ["/sys/ide/workspace/rename", { workspaceId, name: "stolen" }],
      ["/sys/ide/workspace/delete", { workspaceId }],
      ["/sys/ide/file/save", { workspaceId, fileId, content: "stolen" }],
      ["/sys/ide/file/save", { workspaceId: mine.workspaceId, fileId, content: "stolen" }],
      ["/sys/ide/compile", { workspaceId }],
      ["/sys/ide/call", { workspaceId: mine.workspaceId, contractId, signature: "get()", args: [] }],
    ] as const) {
      const res = await call(p, body, otherToken);
      expect(res.message, p).toBe(Msg.NOT_FOUND);
    }
    const still = await ok("/sys/ide/workspace/open", { workspaceId }, token);
    expect(still.name).toBe("My storage");
    expect(still.files[1].content).toBe(open.files[1].content);
  });
});

// The authorisation's clock: a service of this file's own, with a clock the test moves.
let clock = new Date("2026-06-03T04:00:00Z");
// On the PostgreSQL of the run when there is one (DATABASE_URL), else on its own PGlite.
const service = inProcessVueapi(
  "ide-grant",
  {
    DATABASE_URL: process.env.DATABASE_URL,
    PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
    DEMO: "0",
    JOBS_INTERVAL_MS: "0",
  },
  () => clock,
);

describe("the IDE authorisation (§8 MSG_20016)", () => {
  it("is refused before it is issued and after it expires; activity renews it; a new grant brings the session back", async () => {
    const userId = await insertedUser(service, "idegrant1");
    const session = await sessionOf(service, userId);
    const post = (p: string, body: object = {}) => callVueapi(service, p, body, session);
    const w = (await post("/sys/ide/workspace/create", { name: "Clock", templateId: "storage" })).data;
    expect((await post("/sys/ide/workspace/open", { workspaceId: w.workspaceId })).message).toBe(Msg.IDE_AUTH_EXPIRED);
    const grant = await post("/sys/ide/grant");
    expect(grant.data).toMatchObject({
      minutes: IDE_GRANT_MINUTES,
      expiresAt: new Date(clock.getTime() + IDE_GRANT_MINUTES * 60_000).toISOString(),
    });
    const open = await post("/sys/ide/workspace/open", { workspaceId: w.workspaceId });
    expect(open.code).toBe(0);
    const file = open.data.files.find((f: any) => !f.folder);
    // Activity 20 minutes later renews it: 20 more minutes later it is still alive.
    clock = new Date(clock.getTime() + 20 * 60_000);
    expect(
      (await post("/sys/ide/file/save", { workspaceId: w.workspaceId, fileId: file.fileId, content: "// one" })).code,
    ).toBe(0);
    clock = new Date(clock.getTime() + 20 * 60_000);
    expect(
      (await post("/sys/ide/file/save", { workspaceId: w.workspaceId, fileId: file.fileId, content: "// two" })).code,
    ).toBe(0);
    // Idle for longer than the grant: refused with MSG_20016, and nothing is written.
    clock = new Date(clock.getTime() + (IDE_GRANT_MINUTES + 1) * 60_000);
    const expired = await post("/sys/ide/file/save", {
      workspaceId: w.workspaceId,
      fileId: file.fileId,
      content: "// three",
    });
    expect(expired.message).toBe(Msg.IDE_AUTH_EXPIRED);
    expect((await post("/sys/ide/compile", { workspaceId: w.workspaceId })).message).toBe(Msg.IDE_AUTH_EXPIRED);
    // The session itself is still valid (workspaces list), and a new grant lets the kept content be saved.
    expect((await post("/sys/ide/workspace/list", {})).code).toBe(0);
    await post("/sys/ide/grant");
    expect(
      (await post("/sys/ide/file/save", { workspaceId: w.workspaceId, fileId: file.fileId, content: "// three" })).code,
    ).toBe(0);
    expect(
      (await post("/sys/ide/workspace/open", { workspaceId: w.workspaceId })).data.files.find(
        (f: any) => f.fileId === file.fileId,
      ).content,
    ).toBe("// three");
  });
});
