import type { BatchDBOp, DB, DBObject, EncodingOpts } from "@ethereumjs/util";
import { ClassicLevel } from "classic-level";

/**
 * The engine's key-value store on LevelDB (classic-level): the ethereumjs DB interface over one directory.
 * String keys and values are UTF-8, JSON values are JSON (the blockchain's metadata), everything else bytes.
 */
type Key = string | Uint8Array | number;
type Value = string | Uint8Array | DBObject;
type Enc = { keyEncoding: "utf8" | "view"; valueEncoding: "utf8" | "view" | "json" };

function encodings(key: Key, opts: EncodingOpts | undefined, value?: Value): Enc {
  const keyEncoding = opts?.keyEncoding === "string" || typeof key === "string" ? "utf8" : "view";
  const valueEncoding =
    opts?.valueEncoding === "json"
      ? "json"
      : opts?.valueEncoding === "string" || (value !== undefined && typeof value === "string")
        ? "utf8"
        : "view";
  return { keyEncoding, valueEncoding };
}

const keyOf = (key: Key) => (typeof key === "number" ? String(key) : key);

export class LevelStore implements DB<Key, Value> {
  constructor(private readonly level: ClassicLevel<Key, Value>) {}

  static async open(dir: string): Promise<LevelStore> {
    const level = new ClassicLevel<Key, Value>(dir);
    await level.open();
    return new LevelStore(level);
  }

  async get(key: Key, opts?: EncodingOpts): Promise<Value | undefined> {
    return (await this.level.get(keyOf(key), encodings(key, opts))) ?? undefined;
  }
  async put(key: Key, value: Value, opts?: EncodingOpts): Promise<void> {
    await this.level.put(keyOf(key), value, encodings(key, opts, value));
  }
  async del(key: Key, opts?: EncodingOpts): Promise<void> {
    await this.level.del(keyOf(key), encodings(key, opts));
  }
  async batch(ops: BatchDBOp<Key, Value>[]): Promise<void> {
    await this.level.batch(
      ops.map((op) =>
        op.type === "put"
          ? { type: "put" as const, key: keyOf(op.key), value: op.value, ...encodings(op.key, op.opts, op.value) }
          : { type: "del" as const, key: keyOf(op.key), ...encodings(op.key, op.opts) },
      ),
    );
  }
  /**
   * Every key and value as bytes, as the store held them when this was called (a LevelDB iterator reads one
   * snapshot of the store, whatever is written meanwhile): what a chain snapshot copies (./snapshot-file.ts).
   */
  entries(): AsyncIterable<[Uint8Array, Uint8Array]> {
    return this.level.iterator({ keyEncoding: "view", valueEncoding: "view" }) as AsyncIterable<
      [Uint8Array, Uint8Array]
    >;
  }
  /** Writes keys and values given as bytes (a snapshot being restored into an empty store). */
  async putRaw(entries: [Uint8Array, Uint8Array][]): Promise<void> {
    await this.level.batch(
      entries.map(([key, value]) => ({ type: "put" as const, key, value, keyEncoding: "view", valueEncoding: "view" })),
    );
  }
  shallowCopy(): DB<Key, Value> {
    return new LevelStore(this.level);
  }
  async open(): Promise<void> {
    if (this.level.status !== "open") await this.level.open();
  }
  close(): Promise<void> {
    return this.level.close();
  }
}
