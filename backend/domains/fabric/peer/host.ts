import { rm } from "node:fs/promises";
import path from "node:path";
import { and, desc, eq, inArray, like, lt } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import type { FileStore } from "#backend/kit/storage.ts";
import type { FabricPeer } from "../peer-api.ts";
import { fabricBlocks, fabricChaincodes, fabricTxs } from "../tables.ts";
import { endorsedEnvelope } from "./blocks.ts";
import { localIdentity, localProposal, type LocalIdentity } from "./identity.ts";
import { shimRuntime, writeLauncher } from "./launcher.ts";
import { ChannelLedger } from "./ledger.ts";
import { ChaincodeListener } from "./listener.ts";
import { linkPackage, restorePackage } from "./kept-packages.ts";
import { checkPackage, digestOf, unpack } from "./package.ts";
import { EmbeddedPeer } from "./peer.ts";
import { ChaincodeProcess, DEFAULT_LIMITS, type ProcessLimits } from "./process.ts";
import { TxCode } from "./state.ts";

export type HostOptions = {
  /** At most this many chaincode processes at once (docs/decisions/064: M). */
  maxProcesses: number;
  /** A process idle this long is stopped (N). */
  idleMs: number;
  limits: ProcessLimits;
};

export const DEFAULT_HOST: HostOptions = { maxProcesses: 16, idleMs: 10 * 60_000, limits: DEFAULT_LIMITS };

/** A refused package or install: its message says what (a 4xx for the caller). */
export class ChaincodeRefused extends Error {
  override name = "ChaincodeRefused";
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
  }
}

/** The prefix of the test job's throwaway channels: no service's channel has a hyphen (`channelOfAppCode`). */
export const TRIAL_PREFIX = "trial-";

const SAFE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/**
 * The embedded Fabric peer of this process (docs/decisions/064): channels opened on first use from their block
 * log, the chaincode listener, and the chaincode processes (started on first use, stopped when idle, at most
 * `maxProcesses` at once).
 */
export type InstallInput = {
  channel: string;
  name: string;
  version: string;
  packageZip: Uint8Array;
  initArgs?: string[];
  /** Who signs Init (a test service's test identity); else the peer's own identity. */
  initSigner?: LocalIdentity;
};
export type Installed = { name: string; version: string; initTxId: string | null; upgraded: boolean };

export class FabricHost {
  private listener: Promise<ChaincodeListener> | null = null;
  private readonly ledgers = new Map<string, Promise<ChannelLedger>>();
  private readonly current = new Map<string, { name: string; version: string }>();
  private readonly processes = new Map<string, ChaincodeProcess>();
  private readonly fabricDir: string;
  private runtime: ReturnType<typeof shimRuntime> | null = null;
  private identity: Promise<LocalIdentity> | null = null;
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly db: Db,
    dataDir: string,
    private readonly now: () => Date,
    private readonly options: HostOptions = DEFAULT_HOST,
    /** Where each installed package's zip is kept, for a process that takes the peer over (docs/decisions/099). */
    private readonly files?: FileStore,
    /** With several processes on one database: throws unless this one still holds the peer's lease. */
    private readonly fence?: (tx: Tx) => Promise<void>,
  ) {
    this.fabricDir = path.join(dataDir, "fabric");
    this.sweeper = setInterval(() => void this.sweep(), Math.min(30_000, options.idleMs));
    this.sweeper.unref();
  }

  private started(): Promise<ChaincodeListener> {
    this.listener ??= (async () => {
      const listener = new ChaincodeListener();
      await listener.start();
      this.listenerValue = listener;
      return listener;
    })();
    return this.listener;
  }

  private async ledger(channel: string): Promise<ChannelLedger> {
    if (!SAFE.test(channel)) throw new ChaincodeRefused([`${channel} is not a channel name`]);
    let ledger = this.ledgers.get(channel);
    if (!ledger) {
      ledger = (async () => {
        const [row] = await this.db
          .select({
            name: fabricChaincodes.name,
            version: fabricChaincodes.version,
            digest: fabricChaincodes.digest,
            packageFileId: fabricChaincodes.packageFileId,
          })
          .from(fabricChaincodes)
          .where(eq(fabricChaincodes.channel, channel))
          .orderBy(desc(fabricChaincodes.installedAt))
          .limit(1);
        if (row && !this.current.has(channel)) {
          const kept = { db: this.db, files: this.files, fence: this.fence, now: this.now };
          const packageFileId = await linkPackage(kept, channel, row);
          await restorePackage(kept, this.packageDir(channel, row.name, row.version), { ...row, packageFileId });
          this.current.set(channel, { name: row.name, version: row.version });
        }
        return ChannelLedger.open(this.db, channel, this.now, this.fence);
      })();
      this.ledgers.set(channel, ledger);
      ledger.catch(() => this.ledgers.delete(channel));
    }
    return ledger;
  }

  /**
   * The committed definition of chaincode `name` on the channel (docs/decisions/068): the version installed last, and
   * its sequence, the number of versions installed on the channel (Fabric's sequence counts definitions committed).
   */
  async definition(channel: string, name: string) {
    const installed = this.current.get(channel);
    if (!installed || installed.name !== name) return null;
    const rows = await this.db
      .select({ version: fabricChaincodes.version })
      .from(fabricChaincodes)
      .where(and(eq(fabricChaincodes.channel, channel), eq(fabricChaincodes.name, name)));
    return { name, version: installed.version, sequence: rows.length };
  }

  /** The channel's peer, its state rebuilt from the log at first use. */
  async peer(channel: string): Promise<EmbeddedPeer> {
    if (this.closed) throw new Error("the Fabric peer is closed");
    await this.started();
    return new EmbeddedPeer(
      {
        installed: (c) => this.current.get(c) ?? null,
        definition: (c, name) => this.definition(c, name),
        process: (c, cc) => this.processFor(c, cc),
      },
      await this.ledger(channel),
    );
  }

  private processFor(channel: string, cc: { name: string; version: string }): ChaincodeProcess | string {
    const key = `${channel}/${cc.name}/${cc.version}`;
    const found = this.processes.get(key);
    if (found) return found;
    const running = [...this.processes.values()].filter((p) => p.running);
    if (running.length >= this.options.maxProcesses) {
      const idle = running.filter((p) => p.inFlight === 0).sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (!idle) return `the peer runs ${this.options.maxProcesses} chaincode processes already: try again shortly`;
      void idle.stop();
      this.processes.delete(idle.key);
    }
    this.runtime ??= shimRuntime();
    const proc = new ChaincodeProcess(key, {
      name: cc.name,
      packageDir: this.packageDir(channel, cc.name, cc.version),
      launcher: writeLauncher(this.fabricDir),
      runtime: this.runtime,
      listener: this.listenerNow(),
      limits: this.options.limits,
    });
    this.processes.set(key, proc);
    return proc;
  }

  private listenerValue: ChaincodeListener | null = null;
  private listenerNow(): ChaincodeListener {
    if (!this.listenerValue) throw new Error("the chaincode listener has not started");
    return this.listenerValue;
  }

  private packageDir(channel: string, name: string, version: string) {
    return path.join(this.fabricDir, channel, name, version);
  }

  /**
   * Installs a Node.js chaincode package on a channel: checked, unpacked under DATA_DIR/fabric, recorded; the
   * first install runs the chaincode's Init as a transaction of the channel; a new version upgrades (the next
   * proposal runs it; the old version's process stops). The same version again with the same package is a no-op.
   */
  install(input: InstallInput): Promise<Installed> {
    // One install of a channel at a time in this process: the deploy job and a caller running it inline (the test
    // fixture, the one-time backfill) would otherwise both record the version; the second finds the first's.
    const before = this.installing.get(input.channel) ?? Promise.resolve();
    const mine = before.then(() => this.installOnce(input));
    const settled = mine.then(
      () => undefined,
      () => undefined,
    );
    this.installing.set(input.channel, settled);
    void settled.then(() => {
      if (this.installing.get(input.channel) === settled) this.installing.delete(input.channel);
    });
    return mine;
  }

  private readonly installing = new Map<string, Promise<void>>();

  private async installOnce(input: InstallInput): Promise<Installed> {
    for (const [what, value] of [
      ["chaincode name", input.name],
      ["version", input.version],
    ] as const)
      if (!SAFE.test(value)) throw new ChaincodeRefused([`${value} is not a valid ${what}`]);
    const check = checkPackage(input.packageZip);
    if (!check.ok) throw new ChaincodeRefused(check.problems);
    const peer = await this.peer(input.channel);
    const digest = digestOf(input.packageZip);
    const [existing] = await this.db
      .select()
      .from(fabricChaincodes)
      .where(and(eq(fabricChaincodes.channel, input.channel), eq(fabricChaincodes.version, input.version)));
    if (existing && (existing.digest !== digest || existing.name !== input.name))
      throw new ChaincodeRefused([`version ${input.version} is installed already with another package`]);
    const before = this.current.get(input.channel) ?? null;
    if (before && before.name !== input.name)
      throw new ChaincodeRefused([`channel ${input.channel} runs chaincode ${before.name}, not ${input.name}`]);
    if (!existing) {
      await unpack(check.files, this.packageDir(input.channel, input.name, input.version));
      await this.db.transaction(async (tx) => {
        const stored = await this.files?.put(tx, {
          name: `${input.channel}-${input.name}-${input.version}.zip`,
          mime: "application/zip",
          bytes: input.packageZip,
          createdAt: this.now(),
        });
        await tx.insert(fabricChaincodes).values({
          channel: input.channel,
          name: input.name,
          version: input.version,
          digest,
          files: Object.keys(check.files).sort(),
          installedAt: this.now(),
          packageFileId: stored?.id ?? null,
        });
      });
    }
    const upgraded = !!before && before.version !== input.version;
    if (upgraded) await this.stopProcess(`${input.channel}/${before.name}/${before.version}`);
    this.current.set(input.channel, { name: input.name, version: input.version });
    if (existing?.initTxId || (before && !existing))
      return { ...input, initTxId: existing?.initTxId ?? null, upgraded };
    // The first install on the channel (or one whose Init failed before): the chaincode's Init as a transaction.
    const initTxId = await this.runInit(peer, input.name, input.initArgs ?? [], input.initSigner);
    await this.db
      .update(fabricChaincodes)
      .set({ initTxId })
      .where(and(eq(fabricChaincodes.channel, input.channel), eq(fabricChaincodes.version, input.version)));
    return { name: input.name, version: input.version, initTxId, upgraded };
  }

  private async runInit(peer: EmbeddedPeer, name: string, args: string[], signer?: LocalIdentity): Promise<string> {
    const proposal = await localProposal(signer ?? (await this.ownIdentity()), {
      channel: peer.channel,
      chaincode: name,
      args,
      timestamp: this.now(),
    });
    const sim = await peer.simulate(proposal, true);
    if (sim.response.status >= 400) throw new ChaincodeRefused([`Init failed: ${sim.response.message}`]);
    const status = await peer.order({
      channel: peer.channel,
      txId: proposal.txId,
      chaincode: name,
      results: sim.results,
      event: sim.event,
      envelope: endorsedEnvelope({
        channel: peer.channel,
        txId: proposal.txId,
        chaincode: sim.chaincodeId,
        creator: proposal.creator.serialized,
        results: sim.results,
        event: sim.event,
        response: sim.response,
        timestamp: proposal.timestamp,
      }),
    });
    if (status.validationCode !== TxCode.VALID)
      throw new ChaincodeRefused([`Init was not committed (validation code ${status.validationCode})`]);
    return proposal.txId;
  }

  /**
   * Drops channels: their chaincode processes stop, their blocks, transactions and chaincode records leave the
   * database and their unpacked packages the disk, so nothing of them is rebuilt later (the test job's throwaway
   * channels, a deleted test service's channel). Waits for an install in flight on them first.
   */
  async dropChannels(channels: string[]): Promise<void> {
    if (!channels.length) return;
    for (const channel of channels) {
      await this.installing.get(channel);
      for (const key of [...this.processes.keys()]) if (key.startsWith(`${channel}/`)) await this.stopProcess(key);
      this.ledgers.delete(channel);
      this.current.delete(channel);
    }
    await this.db.transaction(async (tx) => {
      await tx.delete(fabricTxs).where(inArray(fabricTxs.channel, channels));
      await tx.delete(fabricBlocks).where(inArray(fabricBlocks.channel, channels));
      const gone = await tx
        .delete(fabricChaincodes)
        .where(inArray(fabricChaincodes.channel, channels))
        .returning({ packageFileId: fabricChaincodes.packageFileId });
      for (const { packageFileId } of gone) if (packageFileId !== null) await this.files?.remove(tx, packageFileId);
    });
    for (const channel of channels)
      if (SAFE.test(channel)) await rm(path.join(this.fabricDir, channel), { recursive: true, force: true });
  }

  /**
   * Throwaway channels (`trial-…`) a process stopped in the middle of a test left behind: those whose genesis block
   * is older than `before` are dropped (a test job in flight in another process made its channel after it).
   */
  async dropStaleTrials(before: Date): Promise<void> {
    const stale = await this.db
      .selectDistinct({ channel: fabricBlocks.channel })
      .from(fabricBlocks)
      .where(
        and(
          like(fabricBlocks.channel, `${TRIAL_PREFIX}%`),
          eq(fabricBlocks.number, 0),
          lt(fabricBlocks.committedAt, before),
        ),
      );
    await this.dropChannels(stale.map((r) => r.channel));
  }

  /** The peer's own identity, for callers without a gateway (the test job, tests). */
  ownIdentity(): Promise<LocalIdentity> {
    this.identity ??= localIdentity();
    return this.identity;
  }

  private async stopProcess(key: string) {
    const proc = this.processes.get(key);
    this.processes.delete(key);
    await proc?.stop();
  }

  private async sweep() {
    const cutoff = Date.now() - this.options.idleMs;
    for (const proc of [...this.processes.values()])
      if (proc.inFlight === 0 && proc.lastUsed < cutoff) await this.stopProcess(proc.key);
  }

  health() {
    return {
      channels: this.ledgers.size,
      processes: [...this.processes.values()].filter((p) => p.running).length,
      maxProcesses: this.options.maxProcesses,
    };
  }

  /** The running chaincode processes (the tests and the bench read their pids). */
  processList() {
    return [...this.processes.values()].map((p) => ({ key: p.key, pid: p.pid, running: p.running, starts: p.starts }));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    await Promise.all([...this.processes.keys()].map((key) => this.stopProcess(key)));
    const listener = await this.listener?.catch(() => null);
    await listener?.close();
  }
}

export type { FabricPeer };
