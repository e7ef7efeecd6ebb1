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
export type Received = { ok: true; bytes: Buffer; mime: string } | ({ ok: false } & Refusal);

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

/**
 * Reads an upload's bytes from `reader` and checks them as they arrive: at most `maxBytes` (reading stops
 * at the first byte past it), a content its name's extension allows (magic bytes of the first 64 KB), and
 * for a zip every entry inflated and counted as it arrives (backend/kit/zip-safety.ts). On a refusal the
 * reader is released at once, unread from there; the caller decides what to do with the rest.
 */
export async function receiveUpload(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  name: string,
  maxBytes: number,
  rule: UploadRule,
): Promise<Received> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let sniffed: Awaited<ReturnType<typeof sniffContent>> | undefined;
  let guard: ZipGuard | null = null;
  const headOf = () => {
    const all = Buffer.concat(chunks);
    return all.subarray(0, Math.min(all.byteLength, SNIFF_BYTES));
  };
  // Once the first 64 KB (or every byte of a smaller file) are in: what the file is, and whether its name allows it.
  const identify = async (): Promise<Refusal["reason"] | null> => {
    sniffed = await sniffContent(headOf());
    if (!sniffed || !extensionAllows(name, sniffed.content)) return "wrongType";
    if (sniffed.content !== "zip") return null;
    guard = new ZipGuard();
    for (const chunk of chunks) {
      const problem = await guard.push(chunk);
      if (problem) return problem;
    }
    return null;
  };

  const stop = (reason: Refusal["reason"]) => {
    reader.releaseLock();
    (guard as ZipGuard | null)?.abandon();
    return refusal(rule, reason);
  };
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (error) {
      (guard as ZipGuard | null)?.abandon();
      throw error;
    }
    if (next.done) break;
    const value = next.value;
    size += value.byteLength;
    if (size > maxBytes) return stop("tooLarge");
    chunks.push(value);
    let problem: Refusal["reason"] | null = null;
    if (sniffed === undefined) {
      if (size >= SNIFF_BYTES) problem = await identify();
    } else if (guard) {
      problem = await (guard as ZipGuard).push(value);
    }
    if (problem) return stop(problem);
  }
  if (size === 0) return refusal(rule, "required");
  if (sniffed === undefined) {
    const problem = await identify();
    if (problem) return refusal(rule, problem);
  }
  const bytes = Buffer.concat(chunks, size);
  chunks.length = 0;
  if (guard) {
    const problem = await (guard as ZipGuard).finish(bytes);
    if (problem) return refusal(rule, problem);
  }
  return { ok: true, bytes, mime: sniffed!.mime };
}
