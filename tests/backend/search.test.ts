import { beforeAll, describe, expect, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import type { SearchHit } from "#contract/search.ts";
import { call } from "./client.ts";
import { buildWorld, leaksOf, publisher, type World } from "./security/world.ts";

/**
 * The console's one search box (issue 35 §2, docs/decisions/086) over HTTP: each kind of record is found by its
 * number, code, hash, address, CID or name, the manual by its words, and another account's records never are.
 * Two accounts with records of every kind, made through the real paths (tests/backend/security/world.ts).
 */

let A: World;
let B: World;
/** What each kind is searched by, per account, and the record the hit must lead to. */
type Probe = {
  label: string;
  q: string;
  kind: SearchHit["kind"];
  page: SearchHit["target"]["page"];
  id: number | string;
};
const probes = new Map<World, Probe[]>();

const ok = async (path: string, body: unknown, token: string) => {
  const res = await call(path, body, token);
  expect(res.code, `${path}: ${JSON.stringify(res).slice(0, 300)}`).toBe(0);
  return res.data;
};
const search = async (q: string, token: string): Promise<SearchHit[]> => (await ok("/sys/search", { q }, token)).hits;

/** The first value of `key` anywhere in an answer. */
function deep(value: unknown, key: string): any {
  if (!value || typeof value !== "object") return undefined;
  if (key in value && (value as any)[key] != null) return (value as any)[key];
  for (const child of Object.values(value)) {
    const found = deep(child, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

async function probesOf(w: World): Promise<Probe[]> {
  const out: Probe[] = [];
  const service = await ok("/sys/chainAppInfo/publishedDetail", { appId: w.runAppId }, w.token);
  out.push({ label: "service by APPCode", q: service.appCode, kind: "service", page: "service", id: w.runAppId });
  out.push({
    label: "service by APPCode, lower case",
    q: service.appCode.toLowerCase(),
    kind: "service",
    page: "service",
    id: w.runAppId,
  });
  out.push({ label: "service by name", q: deep(service, "name"), kind: "service", page: "service", id: w.runAppId });
  for (const appId of w.ids.app) {
    // A draft is not a published service: its detail is refused.
    const detail = (await call("/sys/chainAppInfo/publishedDetail", { appId }, w.token)).data;
    if (detail?.bill) {
      out.push({ label: "bill by number", q: detail.bill.billNo, kind: "bill", page: "bill", id: detail.bill.billId });
      break;
    }
  }
  const invoice = await ok(
    "/sys/system/invoiceAccountTrade/h5invoiceAccountTradeDetail",
    { invoiceId: w.ids.invoice[0] },
    w.token,
  );
  out.push({
    label: "invoice by number",
    q: deep(invoice, "applicationNo"),
    kind: "invoice",
    page: "invoice",
    id: w.ids.invoice[0],
  });
  const paymentNo = String(w.ids.payment[0]);
  out.push({ label: "payment by number", q: paymentNo, kind: "payment", page: "payment", id: paymentNo });
  const withdrawalNo = String(w.ids.withdrawal[0]);
  out.push({
    label: "withdrawal by number",
    q: withdrawalNo,
    kind: "withdrawal",
    page: "withdrawal",
    id: withdrawalNo,
  });
  const account = await ok("/sys/opc/account/detail", { accountId: w.ids.pcAccount[0] }, w.token);
  const address = deep(account, "address") as string;
  out.push({
    label: "chain account by address",
    q: address,
    kind: "chain",
    page: "chainAccount",
    id: w.ids.pcAccount[0],
  });
  out.push({
    label: "chain account by address, lower case",
    q: address.toLowerCase(),
    kind: "chain",
    page: "chainAccount",
    id: w.ids.pcAccount[0],
  });
  const contract = await ok("/sys/opc/contract/detail", { contractId: w.ids.pcContract[0] }, w.token);
  out.push({
    label: "contract by address",
    q: contract.address,
    kind: "chain",
    page: "contract",
    id: w.ids.pcContract[0],
  });
  out.push({
    label: "contract by its deployment's hash",
    q: contract.txHash,
    kind: "chain",
    page: "contract",
    id: w.ids.pcContract[0],
  });
  const gasTx = (w.markers.filter((m) => /^0x[0-9a-f]{64}$/i.test(m)) as string[]).find((m) => m !== contract.txHash);
  if (gasTx) out.push({ label: "gas transfer by hash", q: gasTx, kind: "chain", page: "transaction", id: gasTx });
  out.push({
    label: "contract's deployment as a transaction",
    q: contract.txHash,
    kind: "chain",
    page: "transaction",
    id: contract.txHash.toLowerCase(),
  });
  const project = await ok("/sys/opc/project/detail", { projectId: w.ids.pcProject[0] }, w.token);
  out.push({
    label: "project by name",
    q: deep(project, "name"),
    kind: "chain",
    page: "project",
    id: w.ids.pcProject[0],
  });
  out.push({
    label: "IPFS file by CID",
    q: String(w.named.ipfsCid),
    kind: "ipfs",
    page: "ipfsService",
    id: w.ids.ipfsService[0],
  });
  out.push({
    label: "IPFS file by name",
    q: `${w.tag}.txt`,
    kind: "ipfs",
    page: "ipfsService",
    id: w.ids.ipfsService[0],
  });
  const testService = await ok("/sys/testService/detail", { testServiceId: w.ids.testService[0] }, w.token);
  out.push({
    label: "test service by APPCode",
    q: deep(testService, "appCode"),
    kind: "service",
    page: "testService",
    id: w.ids.testService[0],
  });
  const ddcId = Number(w.ids.ddc[0]);
  out.push({ label: "DDC by token ID", q: `#${ddcId}`, kind: "ddc", page: "ddc", id: ddcId });
  out.push({ label: "DDC by name", q: `${w.tag} ddc`, kind: "ddc", page: "ddc", id: ddcId });
  const credentialId = Number(w.ids.credential[0]);
  out.push({
    label: "credential by number",
    q: String(credentialId),
    kind: "did",
    page: "credential",
    id: credentialId,
  });
  const inbox = await ok("/sys/system/message/list", { page: { pageSize: 50, pageIndex: 1 } }, w.token);
  const named = inbox.page.rows.find((m: any) => Object.values(m.params).some((v) => String(v).includes(w.tag)));
  expect(named, "a message that names one of the account's records").toBeTruthy();
  {
    const value = Object.values(named.params as Record<string, string>).find((v) => v.includes(w.tag))!;
    out.push({
      label: "message by a name it mentions",
      q: value,
      kind: "message",
      page: "message",
      id: named.messageId,
    });
  }
  const did = await ok("/sys/did/identifiers/detail", { didId: w.ids.did[0] }, w.token);
  out.push({ label: "DID", q: deep(did, "did"), kind: "did", page: "did", id: w.ids.did[0] });
  const ticketId = Number(w.ids.supportTicket[0]);
  out.push({ label: "ticket by number", q: `#${ticketId}`, kind: "ticket", page: "ticket", id: ticketId });
  out.push({ label: "ticket by its words", q: `${w.tag} question`, kind: "ticket", page: "ticket", id: ticketId });
  return out;
}

beforeAll(async () => {
  const C = await publisher("srcc");
  A = await buildWorld("srca", C, "4242424242424242");
  B = await buildWorld("srcb", C, "5555555555554444");
  probes.set(A, await probesOf(A));
  probes.set(B, await probesOf(B));
}, 600_000);

describe("the account's own records", () => {
  it("each kind is found by its number, code, hash, address, CID or name, leading to its record", async () => {
    const missing: string[] = [];
    for (const p of probes.get(A)!) {
      expect(p.q, p.label).toBeTruthy();
      const hits = await search(p.q, A.token);
      if (!hits.some((h) => h.kind === p.kind && h.target.page === p.page && h.target.id === p.id))
        missing.push(`${p.label} (${p.q}): ${JSON.stringify(hits).slice(0, 300)}`);
    }
    expect(missing).toEqual([]);
  });

  it("an exact number is an exact match, a name is words; the IPFS file leads to its name in its service", async () => {
    const bill = probes.get(A)!.find((p) => p.kind === "bill")!;
    expect((await search(bill.q, A.token)).find((h) => h.kind === "bill")?.match).toBe("exact");
    const [file] = (await search(`${A.tag}.txt`, A.token)).filter((h) => h.kind === "ipfs");
    expect(file).toMatchObject({ match: "words", label: `${A.tag}.txt`, target: { name: `${A.tag}.txt` } });
  });

  it("the manual is found by its words, in English and in Chinese", async () => {
    expect((await search("IPFS", A.token)).filter((h) => h.kind === "manual").length).toBeGreaterThan(0);
    const zh = await call("/sys/search", { q: "区块链" }, A.token);
    expect(zh.data.hits.filter((h: SearchHit) => h.kind === "manual").length).toBeGreaterThan(0);
  });

  it("a query matching nothing finds nothing; an empty or too long one is refused", async () => {
    expect(await search("zz-nothing-matches-this-9f3k", A.token)).toEqual([]);
    expect((await call("/sys/search", { q: "  " }, A.token)).code).not.toBe(0);
    expect((await call("/sys/search", { q: "x".repeat(201) }, A.token)).code).not.toBe(0);
  });
});

describe("never another account's", () => {
  it("B's numbers, codes, hashes, addresses, CIDs and names find nothing of B's for A", async () => {
    const leaks: string[] = [];
    for (const p of [...probes.get(B)!, { label: "B's tag", q: B.tag } as Probe]) {
      const hits = await search(p.q, A.token);
      const foreign = hits.filter(
        (h) => p.kind && h.kind === p.kind && h.target.page === p.page && h.target.id === p.id,
      );
      const leaked = leaksOf(JSON.stringify(hits), B);
      if (foreign.length || leaked.length)
        leaks.push(`${p.label} (${p.q}): ${leaked.join(", ")} ${JSON.stringify(foreign)}`);
    }
    expect(leaks).toEqual([]);
  });

  it("and B still finds its own", async () => {
    const bill = probes.get(B)!.find((p) => p.kind === "bill")!;
    expect((await search(bill.q, B.token)).some((h) => h.target.id === bill.id)).toBe(true);
  });
});

describe("the transaction page (docs/decisions/089)", () => {
  it("reads the account's transaction from its chain, names its own parties; another's or none is not found", async () => {
    const contract = await ok("/sys/opc/contract/detail", { contractId: A.ids.pcContract[0] }, A.token);
    const tx = await ok("/sys/opc/transaction", { hash: contract.txHash }, A.token);
    expect(tx).toMatchObject({ hash: contract.txHash.toLowerCase(), status: "success", to: null });
    expect(tx.created.toLowerCase()).toBe(contract.address.toLowerCase());
    expect(tx.blockNumber).toBeGreaterThan(0);
    expect(tx.time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(tx.parties).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: "contract", id: A.ids.pcContract[0] })]),
    );
    const theirs = await ok("/sys/opc/contract/detail", { contractId: B.ids.pcContract[0] }, B.token);
    const refused = await call("/sys/opc/transaction", { hash: theirs.txHash }, A.token);
    expect(refused.message).toBe(Msg.NOT_FOUND);
    expect(leaksOf(JSON.stringify(refused), B)).toEqual([]);
    const marked = await ok("/sys/opc/transaction", { hash: A.ids.pcTx[0] }, A.token);
    expect(marked.events).toEqual([
      expect.objectContaining({
        eventName: "Marked",
        args: [{ name: "v", value: "5" }],
        contractId: A.ids.pcContract[0],
      }),
    ]);
    expect(marked.to.toLowerCase()).toBe(contract.address.toLowerCase());
    const none = await call("/sys/opc/transaction", { hash: `0x${"ab".repeat(32)}` }, A.token);
    expect(none.message).toBe(Msg.NOT_FOUND);
    const malformed = await call("/sys/opc/transaction", { hash: "0x1234" }, A.token);
    expect(malformed.code).not.toBe(0);
    expect(malformed.message).not.toBe(Msg.NOT_FOUND);
  });
});
