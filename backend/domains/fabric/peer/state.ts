import { ledger, peer as pb } from "@hyperledger/fabric-protos";

const { kvrwset } = ledger.rwset;

/** Fabric's validation codes the peer gives (`protos.TxValidationCode`). */
export const TxCode = {
  VALID: pb.TxValidationCode.VALID,
  DUPLICATE_TXID: pb.TxValidationCode.DUPLICATE_TXID,
  BAD_PAYLOAD: pb.TxValidationCode.BAD_PAYLOAD,
  MVCC_READ_CONFLICT: pb.TxValidationCode.MVCC_READ_CONFLICT,
  PHANTOM_READ_CONFLICT: pb.TxValidationCode.PHANTOM_READ_CONFLICT,
} as const;

/** A key's version: the block and the transaction in it that last wrote the key. */
export type Version = { block: number; tx: number };
type Entry = { value: Uint8Array; version: Version };
export type HistoryEntry = { txId: string; value: Uint8Array; timestamp: Date; isDelete: boolean };

/** One namespace's reads and writes while a proposal runs (nothing of it is visible to anyone else). */
export type NsRecord = {
  reads: Map<string, Version | null>;
  writes: Map<string, Uint8Array | null>;
  ranges: { start: string; end: string; exhausted: boolean; reads: { key: string; version: Version }[] }[];
};

export const newNsRecord = (): NsRecord => ({ reads: new Map(), writes: new Map(), ranges: [] });

const sameVersion = (a: Version | null | undefined, b: Version | null | undefined) =>
  (a ?? null) === null ? (b ?? null) === null : !!b && a!.block === b.block && a!.tx === b.tx;

/**
 * The versioned world state of one channel (key → value and version, per chaincode namespace) and the history of
 * every key, as the committed blocks left them. Only the ledger changes it, in block order.
 */
export class WorldState {
  private readonly spaces = new Map<string, Map<string, Entry>>();
  private readonly history = new Map<string, HistoryEntry[]>();

  private space(ns: string) {
    let s = this.spaces.get(ns);
    if (!s) this.spaces.set(ns, (s = new Map()));
    return s;
  }

  get(ns: string, key: string): Entry | undefined {
    return this.spaces.get(ns)?.get(key);
  }

  /** Keys in [start, end) in byte order ("" as end: to the last key); Fabric's range semantics. */
  range(ns: string, start: string, end: string): { key: string; entry: Entry }[] {
    const s = this.spaces.get(ns);
    if (!s) return [];
    return [...s.entries()]
      .filter(([key]) => key >= start && (end === "" || key < end))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, entry]) => ({ key, entry }));
  }

  keyHistory(ns: string, key: string): HistoryEntry[] {
    return this.history.get(`${ns}\0${key}`) ?? [];
  }

  /** MVCC: every read still at its version, every range still yielding the same keys at the same versions. */
  validate(rw: Map<string, NsRecord>): number {
    for (const [ns, rec] of rw) {
      for (const [key, version] of rec.reads)
        if (!sameVersion(version, this.get(ns, key)?.version)) return TxCode.MVCC_READ_CONFLICT;
      for (const range of rec.ranges) {
        let now = this.range(ns, range.start, range.end);
        if (!range.exhausted) now = now.slice(0, range.reads.length);
        if (now.length !== range.reads.length) return TxCode.PHANTOM_READ_CONFLICT;
        for (let i = 0; i < now.length; i++)
          if (now[i]!.key !== range.reads[i]!.key || !sameVersion(now[i]!.entry.version, range.reads[i]!.version))
            return TxCode.PHANTOM_READ_CONFLICT;
      }
    }
    return TxCode.VALID;
  }

  /** Applies a valid transaction's writes at `version` and records them in the keys' history. */
  apply(rw: Map<string, NsRecord>, version: Version, txId: string, timestamp: Date) {
    for (const [ns, rec] of rw) {
      const s = this.space(ns);
      for (const [key, value] of rec.writes) {
        if (value === null) s.delete(key);
        else s.set(key, { value, version });
        const hkey = `${ns}\0${key}`;
        const list = this.history.get(hkey) ?? [];
        list.push({ txId, value: value ?? new Uint8Array(), timestamp, isDelete: value === null });
        this.history.set(hkey, list);
      }
    }
  }
}

const toVersion = (v: Version | null) => {
  if (!v) return undefined;
  const out = new kvrwset.Version();
  out.setBlockNum(v.block);
  out.setTxNum(v.tx);
  return out;
};

const kvRead = (key: string, v: Version | null) => {
  const read = new kvrwset.KVRead();
  read.setKey(key);
  const version = toVersion(v);
  if (version) read.setVersion(version);
  return read;
};

/** `rwset.TxReadWriteSet` bytes of a simulation (namespaces in name order, keys in byte order, as Fabric sorts them). */
export function encodeRwset(rw: Map<string, NsRecord>): Uint8Array {
  const tx = new ledger.rwset.TxReadWriteSet();
  tx.setDataModel(ledger.rwset.TxReadWriteSet.DataModel.KV);
  const sorted = <T>(m: Map<string, T>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  tx.setNsRwsetList(
    sorted(rw).map(([ns, rec]) => {
      const set = new kvrwset.KVRWSet();
      set.setReadsList(sorted(rec.reads).map(([key, v]) => kvRead(key, v)));
      set.setRangeQueriesInfoList(
        rec.ranges.map((r) => {
          const info = new kvrwset.RangeQueryInfo();
          info.setStartKey(r.start);
          info.setEndKey(r.end);
          info.setItrExhausted(r.exhausted);
          const raw = new kvrwset.QueryReads();
          raw.setKvReadsList(r.reads.map((x) => kvRead(x.key, x.version)));
          info.setRawReads(raw);
          return info;
        }),
      );
      set.setWritesList(
        sorted(rec.writes).map(([key, value]) => {
          const w = new kvrwset.KVWrite();
          w.setKey(key);
          w.setIsDelete(value === null);
          if (value) w.setValue(value);
          return w;
        }),
      );
      const nsSet = new ledger.rwset.NsReadWriteSet();
      nsSet.setNamespace(ns);
      nsSet.setRwset(set.serializeBinary());
      return nsSet;
    }),
  );
  return tx.serializeBinary();
}

const fromVersion = (v: InstanceType<typeof kvrwset.Version> | undefined): Version | null =>
  v ? { block: v.getBlockNum(), tx: v.getTxNum() } : null;

/** The reads, ranges and writes of `rwset.TxReadWriteSet` bytes (throws on bytes that are not one). */
export function decodeRwset(bytes: Uint8Array): Map<string, NsRecord> {
  const out = new Map<string, NsRecord>();
  for (const nsSet of ledger.rwset.TxReadWriteSet.deserializeBinary(bytes).getNsRwsetList()) {
    const set = kvrwset.KVRWSet.deserializeBinary(nsSet.getRwset_asU8());
    const rec = newNsRecord();
    for (const r of set.getReadsList()) rec.reads.set(r.getKey(), fromVersion(r.getVersion()));
    for (const w of set.getWritesList()) rec.writes.set(w.getKey(), w.getIsDelete() ? null : w.getValue_asU8());
    for (const info of set.getRangeQueriesInfoList())
      rec.ranges.push({
        start: info.getStartKey(),
        end: info.getEndKey(),
        exhausted: info.getItrExhausted(),
        reads: (info.getRawReads()?.getKvReadsList() ?? []).map((r) => ({
          key: r.getKey(),
          version: fromVersion(r.getVersion()) ?? { block: 0, tx: 0 },
        })),
      });
    out.set(nsSet.getNamespace(), rec);
  }
  return out;
}
