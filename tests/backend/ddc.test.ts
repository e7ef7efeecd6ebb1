import { and, eq } from "drizzle-orm";
import { decodeFunctionResult, encodeFunctionData, parseAbi, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it, vi } from "vitest";
import { BillType } from "#contract/billing-codes.ts";
import { Msg } from "#contract/messages.ts";
import { users } from "#backend/db/tables.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import chain from "#backend/domains/chain/index.ts";
import { ddcs, ddcTransfers } from "#backend/domains/ddc/tables.ts";
import { recoverDdcs } from "#backend/domains/ddc/recover.ts";
import {
  callVueapi,
  downloadedBytes,
  downloadVueapi,
  refusedDownload,
  inProcessVueapi,
  loginToken,
  ownDatabase,
  registeredUser,
  uploadVueapi,
} from "./in-process.ts";
import { okVia } from "../support/envelope.ts";
import { COUNTER_SOURCE } from "./fixtures/counter-contract.ts";
import { idempotencyKeys } from "../support/ids.ts";

// Issue 18, DDC and account binding (docs/decisions/045): real ERC-721 tokens minted and transferred on the
// embedded open-alliance chain from custody accounts (ownerOf read on chain), bills 91 and 92, the QR-code
// password, files on IPFS or in the product's storage, and EIP-4361 bindings signed with viem. On PGlite, or on
// the PostgreSQL of DATABASE_URL.

let clock = new Date();
// On PostgreSQL this file has a database of its own (ownDatabase): its clock is held still and moved by hand,
// and the blocks its chain seals under that clock are recorded in the database, where a later file's chain of
// the same id collided with them.
const service = inProcessVueapi(
  "ddc",
  {
    TEST_CAPTCHA: "T1",
    TEST_FIXTURES: "1",
    DATABASE_URL: await ownDatabase(process.env.DATABASE_URL),
    PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
  },
  () => clock,
);
const idem = idempotencyKeys("dd");
const ERC721 = parseAbi([
  "function ownerOf(uint256) view returns (address)",
  "function tokenURI(uint256) view returns (string)",
]);
/** The smallest valid PNG (1×1, grey). */
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108000000003a7e9b550000000a49444154789c6360000000020001e221bc330000000049454e44ae426082",
  "hex",
);

const call = <T = any>(p: string, body: object, token?: string) => callVueapi<T>(service, p, body, token);
const ok = okVia(call);

async function read(contract: string, functionName: "ownerOf" | "tokenURI", tokenId: string) {
  const data = encodeFunctionData({ abi: ERC721, functionName, args: [BigInt(tokenId)] });
  const out = (await chain.api.request(service.services, chain.api.OPEN_ALLIANCE, {
    method: "eth_call",
    params: [{ to: contract, data }, "latest"],
  })) as Hex;
  return decodeFunctionResult({ abi: ERC721, functionName, data: out }) as string;
}

/** A user with a balance, an enabled project and two custody accounts with gas. */
async function userWithProject(prefix: string) {
  const user = await registeredUser(service, prefix);
  const token = await loginToken(service, user.userName, user.password);
  await ok("/test/fixtures", { grantCents: 10_000 }, token);
  const orgs = await ok(
    "/sys/pubChainOrg/queryPubOrgList",
    { page: { pageSize: 10, pageIndex: 1, condition: {} } },
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
  const accounts = [];
  for (const name of ["minter", "second"]) {
    const account = await ok(
      "/sys/opc/account/create",
      { projectId: project.projectId, name, keyType: "1", gasWarning: "0.01" },
      token,
    );
    await ok(
      "/sys/opc/account/assignGas",
      { accountId: account.accountId, amount: "5.00", idempotencyKey: idem() },
      token,
    );
    accounts.push(
      (await ok("/sys/opc/account/detail", { accountId: account.accountId }, token)) as {
        accountId: number;
        address: string;
      },
    );
  }
  const [row] = await service.services.db.select({ id: users.id }).from(users).where(eq(users.userName, user.userName));
  return { token, userId: row!.id, projectId: project.projectId as number, accounts };
}

const balanceOf = async (token: string) => (await ok("/sys/account/summary", {}, token)).balanceCents as number;
const uploaded = async (token: string, name = "certificate.png", bytes: Uint8Array = PNG) => {
  const res = await uploadVueapi(service, "ddc", name, bytes, token);
  expect(res.code, JSON.stringify(res)).toBe(0);
  return { uploadId: res.data.uploadId as string };
};

describe("DDC certificates", () => {
  it("mints real ERC-721 tokens (bill 91), transfers one (bill 92) and ownerOf follows on chain; a foreign DDC is not found", async () => {
    const a = await userWithProject("ddca");
    const before = await balanceOf(a.token);
    const options = await ok("/sys/ddc/options", {}, a.token);
    expect(options.projects.find((p: any) => p.projectId === a.projectId).accounts).toHaveLength(2);

    const mintBody = {
      projectId: a.projectId,
      accountId: a.accounts[0]!.accountId,
      name: "Diploma 毕业证书",
      description: "Awarded with honours",
      metadata: [{ key: "grade", value: "A" }],
      storage: "product",
    };
    const first = await ok(
      "/sys/ddc/mint",
      { ...mintBody, file: await uploaded(a.token), idempotencyKey: idem() },
      a.token,
    );
    expect(first).toMatchObject({
      status: 2,
      tokenId: String(first.ddcId),
      contractAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      mintTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      storage: "product",
      fileMime: "image/png",
    });
    expect(first.tokenUri).toContain(`/g/main/ddc-view?ddcId=${first.ddcId}`);
    expect((await read(first.contractAddress, "ownerOf", first.tokenId)).toLowerCase()).toBe(
      a.accounts[0]!.address.toLowerCase(),
    );
    expect(await read(first.contractAddress, "tokenURI", first.tokenId)).toBe(first.tokenUri);

    // The project's second account mints in the same collection (the owner allows it first).
    const second = await ok(
      "/sys/ddc/mint",
      {
        ...mintBody,
        name: "Second",
        accountId: a.accounts[1]!.accountId,
        file: await uploaded(a.token, "note.txt", Buffer.from("a plain note")),
        idempotencyKey: idem(),
      },
      a.token,
    );
    expect(second.contractAddress).toBe(first.contractAddress);
    expect((await read(second.contractAddress, "ownerOf", second.tokenId)).toLowerCase()).toBe(
      a.accounts[1]!.address.toLowerCase(),
    );

    const mintBills = await service.services.db
      .select()
      .from(bills)
      .where(and(eq(bills.userId, a.userId), eq(bills.billType, BillType.MINT_DDC)));
    expect(mintBills.map((b) => [b.payState, b.payCents])).toEqual([
      [15, 10],
      [15, 10],
    ]);
    expect(await balanceOf(a.token)).toBe(before - 20);

    // Transfer to an outside address: bill 92, ownerOf changes, the history has the mint and the transfer.
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const bad = await call("/sys/ddc/transfer", { ddcId: first.ddcId, to: a.accounts[0]!.address }, a.token);
    expect(bad.message).toBe(Msg.DDC_BAD_RECIPIENT);
    const moved = await ok("/sys/ddc/transfer", { ddcId: first.ddcId, to }, a.token);
    expect(moved.owner).toBe(to);
    expect((await read(first.contractAddress, "ownerOf", first.tokenId)).toLowerCase()).toBe(to.toLowerCase());
    expect(moved.history.map((h: any) => [h.from, h.to])).toEqual([
      ["0x0000000000000000000000000000000000000000", a.accounts[0]!.address],
      [a.accounts[0]!.address, to],
    ]);
    expect(moved.heldBy).toBeNull();
    const transferBills = await service.services.db
      .select()
      .from(bills)
      .where(and(eq(bills.userId, a.userId), eq(bills.billType, BillType.TRANSFER_DDC)));
    expect(transferBills.map((b) => [b.payState, b.payCents])).toEqual([[15, 5]]);
    expect(await balanceOf(a.token)).toBe(before - 25);
    // None of the user's accounts holds it any more.
    expect((await call("/sys/ddc/transfer", { ddcId: first.ddcId, to: a.accounts[1]!.address }, a.token)).message).toBe(
      Msg.DDC_NOT_HELD,
    );

    // Another user: not found, for the detail and the transfer; nothing moved on chain.
    const b = await registeredUser(service, "ddcb");
    const bToken = await loginToken(service, b.userName, b.password);
    expect((await call("/sys/ddc/transfer", { ddcId: second.ddcId, to }, bToken)).message).toBe(Msg.NOT_FOUND);
    expect((await call("/sys/ddc/detail", { ddcId: second.ddcId }, bToken)).message).toBe(Msg.NOT_FOUND);
    expect((await call("/sys/ddc/password", { ddcId: second.ddcId, password: "1234" }, bToken)).message).toBe(
      Msg.NOT_FOUND,
    );
    expect((await read(second.contractAddress, "ownerOf", second.tokenId)).toLowerCase()).toBe(
      a.accounts[1]!.address.toLowerCase(),
    );
    expect((await ok("/sys/ddc/list", { pageIndex: 1, pageSize: 10 }, bToken)).page.total).toBe(0);
    expect((await ok("/sys/ddc/list", { pageIndex: 1, pageSize: 10 }, a.token)).page.total).toBe(2);

    // An idempotent retry answers the first mint; a wrong file type is refused at its upload.
    const key = idem();
    const once = await ok(
      "/sys/ddc/mint",
      { ...mintBody, file: await uploaded(a.token), idempotencyKey: key },
      a.token,
    );
    expect(
      (await ok("/sys/ddc/mint", { ...mintBody, file: await uploaded(a.token), idempotencyKey: key }, a.token)).ddcId,
    ).toBe(once.ddcId);
    const html = await uploadVueapi(service, "ddc", "page.png", Buffer.from("<html><body>hi</body></html>"), a.token);
    expect(html.code).not.toBe(0);

    // The QR-code password guards the public view and the file.
    const open = await ok("/anon/ddc/view", { ddcId: second.ddcId });
    expect(open).toMatchObject({
      locked: false,
      name: "Second",
      owner: a.accounts[1]!.address,
      fileMime: "text/plain",
    });
    expect((await downloadedBytes(service, "ddc-file", { ddcId: second.ddcId })).toString()).toBe("a plain note");
    await ok("/sys/ddc/password", { ddcId: second.ddcId, password: "s3cret-pw" }, a.token);
    expect(await ok("/anon/ddc/view", { ddcId: second.ddcId })).toEqual({
      locked: true,
      ddcId: second.ddcId,
      name: "Second",
    });
    expect((await refusedDownload(service, "ddc-file", { ddcId: second.ddcId })).message).toBe(Msg.NOT_FOUND);
    expect((await call("/anon/ddc/view", { ddcId: second.ddcId, password: "wrong" })).message).toBe(
      Msg.DDC_PASSWORD_WRONG,
    );
    const unlocked = await ok("/anon/ddc/view", { ddcId: second.ddcId, password: "s3cret-pw" });
    expect(unlocked).toMatchObject({ locked: false, owner: a.accounts[1]!.address, pass: expect.any(String) });
    expect((await ok("/anon/ddc/view", { ddcId: second.ddcId, pass: unlocked.pass })).locked).toBe(false);
    const opened = await downloadVueapi(service, "ddc-file", { ddcId: second.ddcId, pass: unlocked.pass });
    expect(opened.headers.get("Content-Disposition")).toMatch(/^inline; filename="note\.txt"/);
    // A new password ends the passes of the old one.
    await ok("/sys/ddc/password", { ddcId: second.ddcId, password: "another-pw" }, a.token);
    expect((await ok("/anon/ddc/view", { ddcId: second.ddcId, pass: unlocked.pass })).locked).toBe(true);
    // Wrong guesses are limited: the fifth locks this address out of this DDC.
    const answers = [];
    for (let i = 0; i < 6; i++)
      answers.push((await call("/anon/ddc/view", { ddcId: second.ddcId, password: `guess-${i}` })).message);
    expect(answers.slice(0, 4)).toEqual(Array(4).fill(Msg.DDC_PASSWORD_WRONG));
    expect(answers.slice(4)).toEqual([Msg.RATE_LIMITED, Msg.RATE_LIMITED]);
    expect((await call("/anon/ddc/view", { ddcId: second.ddcId, password: "another-pw" })).message).toBe(
      Msg.RATE_LIMITED,
    );
    await ok("/sys/ddc/password", { ddcId: second.ddcId, clear: true }, a.token);
    expect((await ok("/anon/ddc/view", { ddcId: second.ddcId })).locked).toBe(false);
    expect((await call("/anon/ddc/view", { ddcId: 999_999 })).message).toBe(Msg.NOT_FOUND);
  }, 240_000);

  it("a contract deployment and DDC mints from one custody account at once are all mined: one nonce queue per account (issue 29 item 5)", async () => {
    const a = await userWithProject("ddcn");
    const account = a.accounts[0]!;
    const contract = await ok(
      "/sys/opc/contract/create",
      {
        projectId: a.projectId,
        accountId: account.accountId,
        name: "Counter",
        sourceKind: "source",
        source: COUNTER_SOURCE,
      },
      a.token,
    );
    const mint = async (name: string) =>
      ok(
        "/sys/ddc/mint",
        {
          projectId: a.projectId,
          accountId: account.accountId,
          name,
          description: "",
          metadata: [],
          storage: "product",
          file: await uploaded(a.token, `${name}.txt`, Buffer.from(name)),
          idempotencyKey: idem(),
        },
        a.token,
      );
    // Before, the deployment job read its nonce itself and sent later: a mint sent in between took the same nonce.
    // Hold the job just after such a read (if it makes one) until a mint has gone through.
    let reached!: () => void;
    const atNonce = new Promise<void>((resolve) => (reached = resolve));
    let mintDone!: () => void;
    const minted = new Promise<void>((resolve) => (mintDone = resolve));
    const request = chain.api.request;
    const spy = vi.spyOn(chain.api, "request").mockImplementation(async (deps, name, rpc) => {
      const result = await request(deps, name, rpc);
      if (rpc.method === "eth_getTransactionCount") {
        reached();
        await Promise.race([minted, new Promise((r) => setTimeout(r, 5_000))]);
      }
      return result;
    });
    try {
      const jobs = service.runJobs();
      await Promise.race([atNonce, jobs]);
      const first = await mint("one");
      mintDone();
      await jobs;
      const rest = await Promise.all([mint("two"), mint("three"), service.runJobs()]);
      for (const m of [first, rest[0], rest[1]]) {
        expect(m.status).toBe(2);
        expect((await read(m.contractAddress, "ownerOf", m.tokenId)).toLowerCase()).toBe(account.address.toLowerCase());
      }
    } finally {
      spy.mockRestore();
    }
    const deployed = await ok("/sys/opc/contract/detail", { contractId: contract.contractId }, a.token);
    expect(deployed, deployed.failReason).toMatchObject({
      status: 2,
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
    });
    const code = await chain.api.request(service.services, chain.api.OPEN_ALLIANCE, {
      method: "eth_getCode",
      params: [deployed.address, "latest"],
    });
    expect(code).not.toBe("0x");
  });

  it("keeps the file on the user's running IPFS service: tokenURI ipfs://<metadata CID>, the file read back by its CID", async () => {
    const a = await userWithProject("ddci");
    const gateways = await ok("/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices", {}, a.token);
    const ipfsService = await ok(
      "/sys/ipfsBusiness/ipfs/create",
      { name: "certificates", storeUnit: 1, orgIds: [gateways[0].orgId], idempotencyKey: idem() },
      a.token,
    );
    const base = {
      projectId: a.projectId,
      accountId: a.accounts[0]!.accountId,
      name: "On IPFS",
      metadata: [{ key: "issuer", value: "BSN" }],
      storage: "ipfs",
    };
    expect(
      (await call("/sys/ddc/mint", { ...base, file: await uploaded(a.token), idempotencyKey: idem() }, a.token))
        .message,
    ).toBe(Msg.INVALID_PARAMS);
    const minted = await ok(
      "/sys/ddc/mint",
      { ...base, ipfsServiceId: ipfsService.ipfsServiceId, file: await uploaded(a.token), idempotencyKey: idem() },
      a.token,
    );
    expect(minted).toMatchObject({
      status: 2,
      storage: "ipfs",
      fileCid: expect.stringMatching(/^b[a-z2-7]+$/),
      tokenUri: expect.stringMatching(/^ipfs:\/\/b[a-z2-7]+$/),
    });
    expect(await read(minted.contractAddress, "tokenURI", minted.tokenId)).toBe(minted.tokenUri);
    expect((await downloadedBytes(service, "ddc-file", { ddcId: minted.ddcId })).equals(PNG)).toBe(true);
    const files = await ok(
      "/sys/ipfsBusiness/ipfs/files",
      { ipfsServiceId: ipfsService.ipfsServiceId, pageIndex: 1, pageSize: 10 },
      a.token,
    );
    expect(files.page.total).toBe(2);
  }, 240_000);

  it("recovers a mint or transfer whose request died after the fee: finished from the receipt, or failed and refunded", async () => {
    const a = await userWithProject("ddcr");
    const mintBody = {
      projectId: a.projectId,
      accountId: a.accounts[0]!.accountId,
      name: "Interrupted",
      description: "The process dies",
      metadata: [],
      storage: "product",
    };
    const send = chain.api.send;
    /**
     * The next send that keeps its hash (a mint or a transfer) behaves as a process killed in the middle: after
     * the transaction is sent ("sent"), or after its hash is kept but before it is sent ("signed"); the request
     * then never answers. `swap` changes what is signed (a transfer the chain will revert).
     */
    const killNext = (
      when: "sent" | "signed",
      swap?: (input: { to?: string; data?: string }) => { to?: string; data?: string; gasLimit?: bigint },
    ) => {
      let reached!: () => void;
      const killed = new Promise<void>((resolve) => (reached = resolve));
      const spy = vi
        .spyOn(chain.api as { send: typeof send }, "send")
        .mockImplementation(async (deps, name, key, input, onSigned) => {
          if (!onSigned) return send(deps, name, key, input);
          spy.mockRestore();
          const signed = swap ? { ...input, ...swap(input) } : input;
          if (when === "sent") await send(deps, name, key, signed, onSigned);
          else
            await send(deps, name, key, signed, async (hash, raw) => {
              await onSigned(hash, raw);
              throw new Error("killed before the send");
            }).catch(() => undefined);
          reached();
          return new Promise<string>(() => undefined);
        });
      return killed;
    };
    const later = (minutes: number) => new Date(clock.getTime() + minutes * 60_000);
    const mintBills = async () =>
      (
        await service.services.db
          .select()
          .from(bills)
          .where(and(eq(bills.userId, a.userId), eq(bills.billType, BillType.MINT_DDC)))
      )
        .map((b) => [b.id, b.payState])
        .sort((x, y) => x[0]! - y[0]!);
    const start = await balanceOf(a.token);

    // 1. Killed after the mint was sent: paid, hash kept, the DDC minting. The recovery finishes it from the receipt.
    let killed = killNext("sent");
    void call("/sys/ddc/mint", { ...mintBody, file: await uploaded(a.token), idempotencyKey: idem() }, a.token);
    await killed;
    const [sent] = await service.services.db.select().from(ddcs).where(eq(ddcs.userId, a.userId));
    expect(sent).toMatchObject({ status: 1, mintTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), mintBlock: null });
    expect(await recoverDdcs(service.services, later(1))).toMatchObject({ minted: 0, mintsFailed: 0 });
    expect(await recoverDdcs(service.services, later(3))).toMatchObject({ minted: 1, mintsFailed: 0 });
    const minted = await ok("/sys/ddc/detail", { ddcId: sent!.id }, a.token);
    expect(minted).toMatchObject({
      status: 2,
      mintTxHash: sent!.mintTxHash,
      mintBlock: expect.any(Number),
      owner: a.accounts[0]!.address,
    });
    expect((await read(minted.contractAddress, "ownerOf", minted.tokenId)).toLowerCase()).toBe(
      a.accounts[0]!.address.toLowerCase(),
    );
    expect(await recoverDdcs(service.services, later(3))).toMatchObject({ minted: 0, mintsFailed: 0 });

    // 2. Killed after the hash was kept but before the send: never mined. Waited for until the deadline, then
    //    failed with the reason and the fee refunded, once; the token does not exist on chain.
    killed = killNext("signed");
    void call(
      "/sys/ddc/mint",
      { ...mintBody, name: "Never sent", file: await uploaded(a.token), idempotencyKey: idem() },
      a.token,
    );
    await killed;
    const [lost] = await service.services.db
      .select()
      .from(ddcs)
      .where(and(eq(ddcs.userId, a.userId), eq(ddcs.name, "Never sent")));
    expect(lost).toMatchObject({ status: 1, mintTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(await balanceOf(a.token)).toBe(start - 20);
    expect(await recoverDdcs(service.services, later(3))).toMatchObject({ minted: 0, mintsFailed: 0 });
    expect(await recoverDdcs(service.services, later(11))).toMatchObject({ minted: 0, mintsFailed: 1 });
    const [failed] = await service.services.db.select().from(ddcs).where(eq(ddcs.id, lost!.id));
    expect(failed).toMatchObject({ status: 3, failReason: expect.stringContaining("was not mined") });
    expect(await mintBills()).toEqual([
      [sent!.billId, 15],
      [lost!.billId, 20],
    ]);
    expect(await balanceOf(a.token)).toBe(start - 10);
    expect(await read(minted.contractAddress, "ownerOf", String(lost!.id)).catch(() => null)).toBeNull();
    expect(await recoverDdcs(service.services, later(11))).toMatchObject({ mintsFailed: 0 });
    expect(await balanceOf(a.token)).toBe(start - 10);

    // 3. A transfer killed after its send: done from the receipt, the token's owner on chain the recipient.
    const to = privateKeyToAccount(generatePrivateKey()).address;
    killed = killNext("sent");
    void call("/sys/ddc/transfer", { ddcId: sent!.id, to }, a.token);
    await killed;
    const [moving] = await service.services.db.select().from(ddcTransfers).where(eq(ddcTransfers.ddcId, sent!.id));
    expect(moving).toMatchObject({ status: 1, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), blockNumber: null });
    expect(await recoverDdcs(service.services, later(3))).toMatchObject({ transferred: 1, transfersFailed: 0 });
    expect(
      (await service.services.db.select().from(ddcTransfers).where(eq(ddcTransfers.id, moving!.id)))[0],
    ).toMatchObject({ status: 2, blockNumber: expect.any(Number) });
    expect((await read(minted.contractAddress, "ownerOf", minted.tokenId)).toLowerCase()).toBe(to.toLowerCase());

    // 4. A transfer killed after a send the chain reverts (here: of a token that does not exist): failed with
    //    the reason, its fee refunded.
    const other = await ok(
      "/sys/ddc/mint",
      { ...mintBody, name: "Kept", file: await uploaded(a.token), idempotencyKey: idem() },
      a.token,
    );
    const balance = await balanceOf(a.token);
    killed = killNext("sent", (input) => ({
      data: input.data!.replace(/[0-9a-f]{64}$/, "f".repeat(64)),
      gasLimit: 200_000n,
    }));
    void call("/sys/ddc/transfer", { ddcId: other.ddcId, to }, a.token);
    await killed;
    expect(await balanceOf(a.token)).toBe(balance - 5);
    expect(await recoverDdcs(service.services, later(3))).toMatchObject({ transferred: 0, transfersFailed: 1 });
    const [reverted] = await service.services.db.select().from(ddcTransfers).where(eq(ddcTransfers.ddcId, other.ddcId));
    expect(reverted).toMatchObject({ status: 3, failReason: expect.stringContaining("reverted") });
    expect((await service.services.db.select().from(bills).where(eq(bills.id, reverted!.billId!)))[0]).toMatchObject({
      payState: 20,
      refundCents: 5,
    });
    expect(await balanceOf(a.token)).toBe(balance);
    expect((await read(other.contractAddress, "ownerOf", other.tokenId)).toLowerCase()).toBe(
      a.accounts[0]!.address.toLowerCase(),
    );
  }, 240_000);
});

describe("account binding (EIP-4361)", () => {
  it("binds an address by a viem-signed challenge; a replayed, altered, foreign-signed or expired one is refused; unbinds", async () => {
    const user = await registeredUser(service, "bind");
    const token = await loginToken(service, user.userName, user.password);
    const wallet = privateKeyToAccount(generatePrivateKey());
    const issued = await ok("/sys/binding/challenge", { address: wallet.address.toLowerCase() }, token);
    expect(issued.message).toContain(wallet.address);
    expect(issued.message).toContain(`Nonce: ${issued.nonce}`);
    const signature = await wallet.signMessage({ message: issued.message });
    const bound = await ok("/sys/binding/bind", { message: issued.message, signature }, token);
    expect(bound).toMatchObject({ address: wallet.address, chainId: expect.any(Number) });
    expect((await ok("/sys/binding/list", {}, token)).rows.map((r: any) => r.address)).toEqual([wallet.address]);
    // Replayed: the challenge was used.
    expect((await call("/sys/binding/bind", { message: issued.message, signature }, token)).message).toBe(
      Msg.BINDING_CHALLENGE_USED,
    );

    // Altered (and signed as altered): not the message issued.
    const other = privateKeyToAccount(generatePrivateKey());
    const second = await ok("/sys/binding/challenge", { address: other.address }, token);
    const altered = second.message.replace("Bind this address", "Bind that address");
    expect(
      (
        await call(
          "/sys/binding/bind",
          { message: altered, signature: await other.signMessage({ message: altered }) },
          token,
        )
      ).message,
    ).toBe(Msg.BINDING_MESSAGE_ALTERED);
    // Signed by another key than the address it names.
    expect(
      (
        await call(
          "/sys/binding/bind",
          { message: second.message, signature: await wallet.signMessage({ message: second.message }) },
          token,
        )
      ).message,
    ).toBe(Msg.BINDING_BAD_SIGNATURE);
    // Another user cannot use this user's challenge.
    const stranger = await registeredUser(service, "bindx");
    const strangerToken = await loginToken(service, stranger.userName, stranger.password);
    expect(
      (
        await call(
          "/sys/binding/bind",
          { message: second.message, signature: await other.signMessage({ message: second.message }) },
          strangerToken,
        )
      ).message,
    ).toBe(Msg.BINDING_CHALLENGE_USED);
    // Expired: 10 minutes later.
    clock = new Date(clock.getTime() + 11 * 60_000);
    expect(
      (
        await call(
          "/sys/binding/bind",
          { message: second.message, signature: await other.signMessage({ message: second.message }) },
          token,
        )
      ).message,
    ).toBe(Msg.BINDING_CHALLENGE_USED);
    // The address bound here cannot be bound by another account.
    const theirs = await ok("/sys/binding/challenge", { address: wallet.address }, strangerToken);
    expect(
      (
        await call(
          "/sys/binding/bind",
          { message: theirs.message, signature: await wallet.signMessage({ message: theirs.message }) },
          strangerToken,
        )
      ).message,
    ).toBe(Msg.BINDING_ADDRESS_TAKEN);
    // A line-ending change by a textarea (CRLF) is not an alteration.
    const third = await ok("/sys/binding/challenge", { address: other.address }, token);
    await ok(
      "/sys/binding/bind",
      { message: third.message.replace(/\n/g, "\r\n"), signature: await other.signMessage({ message: third.message }) },
      token,
    );

    expect((await call("/sys/binding/unbind", { bindingId: bound.bindingId }, strangerToken)).message).toBe(
      Msg.NOT_FOUND,
    );
    await ok("/sys/binding/unbind", { bindingId: bound.bindingId }, token);
    expect((await ok("/sys/binding/list", {}, token)).rows.map((r: any) => r.address)).toEqual([other.address]);
  }, 120_000);
});
