import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { EngineChain } from "#backend/domains/chain/engine/chain.ts";
import { LevelStore } from "#backend/domains/chain/engine/level.ts";
import { readSnapshotFile, writeSnapshotFile } from "#backend/domains/chain/engine/snapshot-file.ts";
import type { ChainSpec } from "#backend/domains/chain/engine/types.ts";

// docs/decisions/103: a chain's snapshot file holds its engine's state at one block; a chain restored from it on an
// empty directory has that block and state, and seals the next blocks to the same hashes as the original.

const root = mkdtempSync(path.join(tmpdir(), "bsn-chain-snapshot-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const treasuryKey = generatePrivateKey();
const treasury = privateKeyToAccount(treasuryKey);
const CHAIN_ID = 424242;
const spec = (name: string): ChainSpec => ({
  name,
  chainId: CHAIN_ID,
  dir: path.join(root, name),
  treasury: treasury.address,
  treasuryWei: (10n ** 24n).toString(),
});

let nonce = 0;
/** A transfer from the treasury to `to`, signed (EIP-1559, replay-protected). */
async function transfer(to: `0x${string}`, value: bigint): Promise<string> {
  return treasury.signTransaction({
    chainId: CHAIN_ID,
    type: "eip1559",
    nonce: nonce++,
    to,
    value,
    gas: 21_000n,
    maxFeePerGas: 10n ** 11n,
    maxPriorityFeePerGas: 10n ** 9n,
  });
}

async function restoreInto(name: string, file: string): Promise<EngineChain> {
  const blocks = await LevelStore.open(path.join(root, name, "blocks"));
  const state = await LevelStore.open(path.join(root, name, "state"));
  await readSnapshotFile(file, { blocks, state });
  await blocks.close();
  await state.close();
  return EngineChain.open(spec(name));
}

describe("a chain's snapshot file", () => {
  it("restores the head and state, and the next blocks seal to the same hashes", async () => {
    const original = await EngineChain.open(spec("original"));
    const alice = privateKeyToAccount(generatePrivateKey()).address;
    const bob = privateKeyToAccount(generatePrivateKey()).address;
    for (let i = 1; i <= 6; i++) await original.seal([await transfer(alice, BigInt(i))], 1_700_000_000 + i);
    const file = path.join(root, "at-6.gz");
    const [blocks, state] = original.stores;
    const later = [await transfer(bob, 5n), await transfer(alice, 7n)];
    // The next block is sealed while the file is being written (as the engine's thread goes on): not in it.
    const writing = writeSnapshotFile({ blocks: blocks!, state: state! }, file);
    const sealedAfter = await original.seal(later, 1_700_000_100);
    const { entries } = await writing;
    expect(entries).toBeGreaterThan(10);

    const restored = await restoreInto("restored", file);
    expect((await restored.head()).number).toBe(6);
    expect((await restored.head()).hash).toBe((await original.block(6n, false))!.hash);
    expect(await restored.balance(alice, "latest")).toBe("0x15");
    expect(await restored.balance(bob, "latest")).toBe("0x0");
    expect(await restored.nonce(treasury.address, "latest")).toBe("0x6");

    const resealed = await restored.seal(later, 1_700_000_100);
    expect(resealed.block!.hash).toBe(sealedAfter.block!.hash);
    expect(await restored.balance(alice, "latest")).toBe(await original.balance(alice, "latest"));
    await original.close();
    await restored.close();
  });

  it("refuses a file that is not a snapshot, or one cut short, before it opens as a chain", async () => {
    const other = path.join(root, "other.gz");
    writeFileSync(other, gzipSync(Buffer.from("hello, not a snapshot at all")));
    await expect(restoreInto("from-other", other)).rejects.toThrow(/not a chain snapshot file/);

    const good = path.join(root, "good.gz");
    const chain = await EngineChain.open(spec("short"));
    const [blocks, state] = chain.stores;
    await writeSnapshotFile({ blocks: blocks!, state: state! }, good);
    await chain.close();
    const whole = (await import("node:zlib")).gunzipSync(readFileSync(good));
    const cut = path.join(root, "cut.gz");
    writeFileSync(cut, gzipSync(whole.subarray(0, whole.length - 7)));
    await expect(restoreInto("from-cut", cut)).rejects.toThrow(/cut short/);
  });
});
