import { extensionAllows, sniffContent, SNIFF_BYTES } from "./file-content.ts";
import { ZipGuard, type ZipProblem } from "./zip-safety.ts";

/**
 * An upload kind as the domain that owns it declares it (backend/kit/domain.ts `uploads`; the kinds and
 * their byte limits are in contract/uploads.ts). The backend's upload path (backend/http/upload.ts)
 * checks a file with it while the bytes arrive (docs/decisions/023).
 */
export type UploadRule = {
  /** The file name's problem (an i18n key), checked before any byte is read; `size` is not known yet. */
  nameProblem: (name: string) => string | null;
  /** What the form shows at the file's field (i18n keys). */
  messages: {
    required: string;
    tooLarge: string;
    /** The name's extension is not one the kind takes (as `nameProblem` answers it). */
    extension: string;
    /** The content is not one the name's extension allows. */
    wrongType: string;
    /** A zip (or zip container) with entries outside its folder, a bomb, or unreadable. */
    zip?: Partial<Record<ZipProblem, string>>;
  };
};

export type Refusal = { reason: "required" | "tooLarge" | "wrongType" | ZipProblem; messageKey: string };
export type Received<T = Buffer> = { ok: true; kept: T; mime: string; size: number } | ({ ok: false } & Refusal);

/** The sender went away (or aborted) before the end of its upload. */
export class SenderGone extends Error {
  constructor(cause: unknown) {
    super("the upload's sender went away", { cause });
  }
}

class Refused extends Error {
  constructor(readonly reason: Refusal["reason"]) {
    super(`upload refused: ${reason}`);
  }
}

function refusal(rule: UploadRule, reason: Refusal["reason"]): { ok: false } & Refusal {
  const m = rule.messages;
  const messageKey =
    reason === "required"
      ? m.required
      : reason === "tooLarge"
        ? m.tooLarge
        : reason === "wrongType"
          ? m.wrongType
          : (m.zip?.[reason] ?? m.wrongType);
  return { ok: false, reason, messageKey };
}

async function gather(bytes: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of bytes) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Reads an upload's bytes from `reader`, checks them as they arrive and hands them on to `keep` (the
 * storage adapter's put, docs/decisions/053) as they pass: at most `maxBytes` (reading stops at the first
 * byte past it), a content its name's extension allows (magic bytes of the first 64 KB, held until they are
 * sniffed), and for a zip every entry inflated and counted as it arrives (backend/kit/zip-safety.ts), its
 * central directory read from its last bytes. Nothing holds the whole file: `keep` gets each chunk once it
 * passed, and its iteration fails with the refusal (so that `keep` drops what it wrote) before it ends. On a
 * refusal the reader is released at once, unread from there; the caller decides what to do with the rest.
 * `mime` (what the bytes are) is known once the first 64 KB were read. Without `keep`, the bytes are gathered.
 */
export async function receiveUpload<T = Buffer>(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  name: string,
  maxBytes: number,
  rule: UploadRule,
  keep: (bytes: AsyncIterable<Uint8Array>, mime: () => string) => Promise<T> = gather as never,
): Promise<Received<T>> {
  let held: Uint8Array[] = [];
  let size = 0;
  let sniffed: Awaited<ReturnType<typeof sniffContent>> | undefined;
  let guard: ZipGuard | null = null;
  const headOf = () => {
    const all = Buffer.concat(held);
    return all.subarray(0, Math.min(all.byteLength, SNIFF_BYTES));
  };
  // Once the first 64 KB (or every byte of a smaller file) are in: what the file is, and whether its name allows it.
  const identify = async () => {
    sniffed = await sniffContent(headOf());
    if (!sniffed || !extensionAllows(name, sniffed.content)) throw new Refused("wrongType");
    if (sniffed.content !== "zip") return;
    guard = new ZipGuard();
    for (const chunk of held) {
      const problem = await guard.push(chunk);
      if (problem) throw new Refused(problem);
    }
  };
  const release = () => {
    const out = held;
    held = [];
    return out;
  };
  async function* checked(): AsyncIterable<Uint8Array> {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        throw new SenderGone(error);
      }
      if (next.done) break;
      const value = next.value;
      size += value.byteLength;
      if (size > maxBytes) throw new Refused("tooLarge");
      if (sniffed === undefined) {
        held.push(value);
        if (size >= SNIFF_BYTES) {
          await identify();
          yield* release();
        }
        continue;
      }
      if (guard) {
        const problem = await (guard as ZipGuard).push(value);
        if (problem) throw new Refused(problem);
      }
      yield value;
    }
    if (size === 0) throw new Refused("required");
    if (sniffed === undefined) {
      await identify();
      yield* release();
    }
    if (guard) {
      const problem = await (guard as ZipGuard).finish();
      if (problem) throw new Refused(problem);
    }
  }
  try {
    const kept = await keep(checked(), () => sniffed!.mime);
    return { ok: true, kept, mime: sniffed!.mime, size };
  } catch (error) {
    (guard as ZipGuard | null)?.abandon();
    if (!(error instanceof Refused)) throw error;
    try {
      reader.releaseLock();
    } catch {
      // already released
    }
    return refusal(rule, error.reason);
  }
}
