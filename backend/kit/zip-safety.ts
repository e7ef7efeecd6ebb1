import { createInflateRaw, type Inflate } from "node:zlib";
import {
  Unzip,
  UnzipPassThrough,
  unzipSync,
  type AsyncFlateStreamHandler,
  type UnzipDecoder,
  type UnzipDecoderConstructor,
  type UnzipFile,
} from "fflate";

/**
 * What makes a zip unsafe to keep or unpack (docs/decisions/023), one module for the upload check
 * (while the zip arrives) and the chaincode test job (backend/domains/services/inspect.ts):
 * - an entry name that leaves the archive's folder: `..` as a path segment, an absolute path, a drive
 *   letter, a NUL;
 * - a bomb: more entries than `maxEntries`, more than `maxTotalUncompressed` bytes unpacked (as the
 *   central directory declares them, and as they really inflate), or a compression ratio above `maxRatio`.
 */
export const ZIP_LIMITS = {
  /** §9: chaincode zips are at most 60 MB; what they unpack to may be larger, within reason. */
  maxTotalUncompressed: 200 * 1024 * 1024,
  maxEntries: 5000,
  /** A single source file larger than this is not read (the test job). */
  maxSourceBytes: 5 * 1024 * 1024,
  /** Compression ratios (unpacked / packed, over the whole archive) above this are treated as a bomb. */
  maxRatio: 200,
};

export type ZipProblem = "invalid" | "unsafePath" | "bomb";

/** An entry name that would be written outside the folder the archive is unpacked in. */
export function isUnsafeEntryName(name: string): boolean {
  if (name.includes("\0")) return true;
  const path = name.replace(/\\/g, "/");
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return true;
  return path.split("/").some((segment) => segment === "..");
}

export type ZipEntry = { name: string; size: number; originalSize: number };

/** The rules over a list of entries: names, count, declared unpacked total and ratio. */
export function entriesProblem(entries: readonly ZipEntry[]): Exclude<ZipProblem, "invalid"> | null {
  if (entries.some((e) => isUnsafeEntryName(e.name))) return "unsafePath";
  const fileEntries = entries.filter((e) => !e.name.endsWith("/"));
  const total = fileEntries.reduce((sum, e) => sum + e.originalSize, 0);
  const packed = fileEntries.reduce((sum, e) => sum + e.size, 0);
  if (
    entries.length > ZIP_LIMITS.maxEntries ||
    total > ZIP_LIMITS.maxTotalUncompressed ||
    total > Math.max(packed, 1) * ZIP_LIMITS.maxRatio
  )
    return "bomb";
  return null;
}

/** The entries of the central directory (nothing is inflated), or null when the bytes are not a readable zip. */
export function centralDirectory(bytes: Uint8Array): ZipEntry[] | null {
  const entries: ZipEntry[] = [];
  try {
    unzipSync(bytes, {
      filter: (file) => {
        entries.push({ name: file.name, size: file.size, originalSize: file.originalSize });
        return false;
      },
    });
  } catch {
    return null;
  }
  return entries;
}

/** How many of a zip's last bytes the upload check keeps to read its central directory from (§9: 5000 entries fit). */
export const ZIP_TAIL_BYTES = 8 * 1024 * 1024;

const u16 = (d: Uint8Array, at: number) => d[at]! | (d[at + 1]! << 8);
const u32 = (d: Uint8Array, at: number) => (u16(d, at) | (u16(d, at + 2) << 16)) >>> 0;
const setU32 = (d: Uint8Array, at: number, v: number) => {
  for (let i = 0; i < 4; i++) d[at + i] = (v >>> (8 * i)) & 0xff;
};

/**
 * The entries of the central directory of a zip of which only the last bytes are at hand: `tail`, the bytes
 * from offset `tailStart` to the end. The directory's offsets (of the end record, and of the zip64 one) are
 * moved to count from the tail's start, then it is read as `centralDirectory` reads a whole archive. Null
 * when it is not readable or not within the tail.
 */
export function centralDirectoryOfTail(tail: Uint8Array, tailStart: number): ZipEntry[] | null {
  if (tailStart === 0) return centralDirectory(tail);
  const d = Uint8Array.from(tail);
  let e = d.length - 22;
  while (e >= 0 && u32(d, e) !== 0x06054b50) {
    if (d.length - e > 65558) return null;
    e--;
  }
  if (e < 0) return null;
  const moved = (offset: number) => offset - tailStart;
  const cd = u32(d, e + 16);
  if (cd === 0xffffffff || u16(d, e + 8) === 0xffff) {
    // Zip64: the locator (20 bytes before the end record) names the zip64 end record, which names the directory.
    if (e < 20 || u32(d, e - 20) !== 0x07064b50) return null;
    const record = moved(u32(d, e - 12));
    if (record < 0 || record + 56 > d.length || u32(d, record) !== 0x06064b50) return null;
    setU32(d, e - 12, record);
    const directory = moved(u32(d, record + 48));
    if (directory < 0) return null;
    setU32(d, record + 48, directory);
  } else {
    if (moved(cd) < 0) return null;
    setU32(d, e + 16, moved(cd));
  }
  return centralDirectory(d);
}

/** Inflated output is counted in pieces this large (Node's 16 KB default costs a thread hop per piece). */
const INFLATE_CHUNK_BYTES = 1024 * 1024;

type InflateSink = {
  count: (bytes: number) => void;
  refuse: (problem: ZipProblem) => void;
  refused: () => boolean;
  opened: (inflater: Inflate) => void;
  wait: (room: Promise<void>) => void;
};

/** A decoder of deflated entries for fflate's Unzip: Node's inflate (off the main thread), whose output is only counted. */
function countingInflate(sink: InflateSink): UnzipDecoderConstructor {
  return class CountingInflate implements UnzipDecoder {
    static compression = 8;
    ondata: AsyncFlateStreamHandler = () => undefined;
    private readonly inflater = createInflateRaw({ chunkSize: INFLATE_CHUNK_BYTES });
    constructor() {
      this.inflater.on("data", (chunk: Buffer) => sink.count(chunk.byteLength));
      this.inflater.on("error", () => sink.refuse("invalid"));
      sink.opened(this.inflater);
    }
    push(data: Uint8Array, final: boolean) {
      if (sink.refused() || this.inflater.destroyed) return;
      if (data.byteLength > 0 && !this.inflater.write(data)) {
        // Wait until it has room again, or is closed (ended, failed, or destroyed by a refusal).
        sink.wait(
          new Promise<void>((resolve) => {
            const done = () => {
              this.inflater.off("drain", done).off("close", done);
              resolve();
            };
            this.inflater.on("drain", done).on("close", done);
          }),
        );
      }
      if (final) this.inflater.end();
    }
  };
}

/**
 * A zip checked while it arrives: `push` each chunk as it comes, then `finish` with the whole archive.
 * Every entry is inflated (and the output thrown away) as its bytes arrive, by Node's zlib off the main
 * thread, so a bomb is refused as soon as what it really unpacks to passes the limit, whatever its headers
 * say; then the central directory's names and declared sizes are checked with `entriesProblem`, as the
 * test job does. fflate's streaming `Unzip` reads the local headers.
 */
export class ZipGuard {
  private readonly unzip = new Unzip();
  private problem: ZipProblem | null = null;
  private entries = 0;
  private inflated = 0;
  private received = 0;
  private readonly inflaters = new Set<Inflate>();
  private readonly finished: Promise<void>[] = [];
  private drains: Promise<void>[] = [];
  /** The archive's last ZIP_TAIL_BYTES (at most) so far, for its central directory. */
  private tail: Uint8Array[] = [];
  private tailBytes = 0;

  constructor() {
    this.unzip.register(
      countingInflate({
        count: (bytes) => this.count(bytes),
        refuse: (problem) => this.refuse(problem),
        refused: () => this.problem !== null,
        opened: (inflater) => {
          this.inflaters.add(inflater);
          this.finished.push(new Promise<void>((resolve) => inflater.once("close", resolve)));
          inflater.once("close", () => this.inflaters.delete(inflater));
        },
        wait: (room) => this.drains.push(room),
      }),
    );
    this.unzip.register(UnzipPassThrough);
    this.unzip.onfile = (file) => this.onFile(file);
  }

  private onFile(file: UnzipFile) {
    if (this.problem) return;
    this.entries += 1;
    if (isUnsafeEntryName(file.name)) return this.refuse("unsafePath");
    if (this.entries > ZIP_LIMITS.maxEntries) return this.refuse("bomb");
    if (file.compression !== 0 && file.compression !== 8) return this.refuse("invalid");
    // Stored entries come through here (deflated ones are counted by CountingInflate).
    file.ondata = (error, data) => (error ? this.refuse("invalid") : this.count(data.byteLength));
    file.start();
  }

  private count(bytes: number) {
    this.inflated += bytes;
    if (this.inflated > ZIP_LIMITS.maxTotalUncompressed) this.refuse("bomb");
  }

  private refuse(problem: ZipProblem) {
    this.problem ??= problem;
    for (const inflater of this.inflaters) inflater.destroy();
  }

  /** Stops: what is being inflated is dropped (the upload was refused for another reason). */
  abandon() {
    for (const inflater of this.inflaters) inflater.destroy();
  }

  /** The next bytes of the archive; answers the problem found so far (then stop pushing). */
  async push(chunk: Uint8Array): Promise<ZipProblem | null> {
    if (this.problem) return this.problem;
    try {
      this.unzip.push(chunk, false);
    } catch {
      this.refuse("invalid");
    }
    this.received += chunk.byteLength;
    this.keepTail(chunk);
    // The inflaters keep up with the arrival (backpressure), so nothing piles up in memory.
    const drains = this.drains;
    this.drains = [];
    await Promise.all(drains);
    return this.problem;
  }

  private keepTail(chunk: Uint8Array) {
    this.tail.push(chunk);
    this.tailBytes += chunk.byteLength;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.byteLength >= ZIP_TAIL_BYTES)
      this.tailBytes -= this.tail.shift()!.byteLength;
  }

  /** The verdict once every byte has arrived (the central directory is read from the archive's last bytes). */
  async finish(): Promise<ZipProblem | null> {
    if (!this.problem) {
      try {
        this.unzip.push(new Uint8Array(0), true);
      } catch {
        this.refuse("invalid");
      }
    }
    // An entry cut short never got its last push: ending it makes its inflater end (or fail as truncated).
    for (const inflater of this.inflaters) if (!inflater.writableEnded) inflater.end();
    await Promise.all(this.finished);
    if (this.problem) return this.problem;
    if (this.inflated > Math.max(this.received, 1) * ZIP_LIMITS.maxRatio) return "bomb";
    const tail = Buffer.concat(this.tail, this.tailBytes);
    this.tail = [];
    const entries = centralDirectoryOfTail(tail, this.received - tail.byteLength);
    if (!entries) return "invalid";
    return entriesProblem(entries);
  }
}
