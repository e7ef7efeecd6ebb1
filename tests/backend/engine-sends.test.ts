import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import chain from "#backend/domains/chain/index.ts";
import { addressOf } from "#backend/domains/chain/sign.ts";
import { openVueapi, ownDatabase, type Vueapi } from "./in-process.ts";

/**
 * One sender's transactions through two processes at once (issue 32 item 3, docs/decisions/099): every nonce is
 * taken in the chains' holder, whichever process the send began in. Two portal services on one PostgreSQL (the
 * first holds the chains' lease, the second forwards); one key sends through both at the same moment; each
 * transaction is accepted with its own nonce. A forwarding process keeps the signed transaction before it is sent,
 * and one it lets go is never sent and takes no nonce.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const reason = "skipped: DATABASE_URL is unset (processes share the chains only on PostgreSQL; PGlite has one writer)";

describe.skipIf(!DATABASE_URL)(`one sender through two processes${DATABASE_URL ? "" : ` (${reason})`}`, () => {
  let holder: Vueapi;
  let forwarder: Vueapi;

  beforeAll(async () => {
    const vars = {
      DATABASE_URL: await ownDatabase(DATABASE_URL),
      SESSION_SECRET: "backend-test-secret",
      PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
    };
    holder = await openVueapi("sends-holder", vars);
    forwarder = await openVueapi("sends-forwarder", vars);
  }, 120_000);
  afterAll(async () => {
    await forwarder?.close();
    await holder?.close();
  });

  it("twelve transfers from one key through both processes at once: all accepted, nonces 0 to 11", async () => {
    const engines = async (service: Vueapi) => ((await service.health()) as { engines: Record<string, any> }).engines;
    expect((await engines(holder)).chain.self).toBe(true);
    expect((await engines(forwarder)).chain.self).toBe(false);

    const name = chain.api.OPEN_ALLIANCE;
    const key = `0x${randomBytes(32).toString("hex")}`;
    const sender = await addressOf(key);
    await chain.api.fund(holder.services, name, sender, 10n ** 18n);
    const kept: string[] = [];
    const sends = Array.from({ length: 12 }, (_, i) => {
      const through = i % 2 ? forwarder : holder;
      const to = `0x${randomBytes(20).toString("hex")}`;
      return chain.api
        .send(through.services, name, key, { to, value: BigInt(i + 1), gasLimit: 21_000n }, async (hash) => {
          kept.push(hash);
        })
        .then((hash) => ({ hash, to, wei: BigInt(i + 1) }));
    });
    const sent = await Promise.all(sends);
    // Each was kept by its caller before it was sent.
    expect(new Set(kept)).toEqual(new Set(sent.map((s) => s.hash)));
    const nonces: number[] = [];
    for (const s of sent) {
      const tx = (await chain.api.request(forwarder.services, name, {
        method: "eth_getTransactionByHash",
        params: [s.hash],
      })) as { nonce: string; from: string };
      expect(tx.from.toLowerCase()).toBe(sender.toLowerCase());
      nonces.push(Number(tx.nonce));
      const balance = await chain.api.request(holder.services, name, {
        method: "eth_getBalance",
        params: [s.to, "latest"],
      });
      expect(BigInt(balance as string)).toBe(s.wei);
    }
    expect(nonces.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i));

    // Let go by the forwarding process (its caller could not keep it): not sent, and its nonce is the next one's.
    const lost = `0x${randomBytes(20).toString("hex")}`;
    await expect(
      chain.api.send(forwarder.services, name, key, { to: lost, value: 5n, gasLimit: 21_000n }, async () => {
        throw new Error("the caller's own write failed");
      }),
    ).rejects.toThrow("the caller's own write failed");
    expect(
      BigInt(
        (await chain.api.request(holder.services, name, {
          method: "eth_getBalance",
          params: [lost, "latest"],
        })) as string,
      ),
    ).toBe(0n);
    const next = await chain.api.send(forwarder.services, name, key, {
      to: `0x${randomBytes(20).toString("hex")}`,
      value: 1n,
      gasLimit: 21_000n,
    });
    const tx = (await chain.api.request(holder.services, name, {
      method: "eth_getTransactionByHash",
      params: [next],
    })) as { nonce: string };
    expect(Number(tx.nonce)).toBe(12);
  }, 120_000);
});
