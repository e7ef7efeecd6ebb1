import { fileTypeFromBuffer } from "file-type";

/**
 * What a file is by its bytes, not its name (docs/decisions/023): magic bytes read with `file-type`, and
 * a text check for what has none. A file is accepted when its content is one its extension allows, so an
 * HTML page named .pdf, or a program named .png, is refused.
 */
export type Content = "zip" | "pdf" | "png" | "jpeg" | "cfb" | "rar" | "tar" | "text";

/** What each accepted extension may contain. Images are interchangeable (a PNG named .jpg is still an image). */
const CONTENT_OF_EXTENSION: Record<string, readonly Content[]> = {
  zip: ["zip"],
  jar: ["zip"],
  docx: ["zip"],
  doc: ["cfb"],
  wps: ["cfb"],
  pdf: ["pdf"],
  txt: ["text"],
  jwt: ["text"],
  rar: ["rar"],
  tar: ["tar"],
  png: ["png", "jpeg"],
  jpg: ["png", "jpeg"],
  jpeg: ["png", "jpeg"],
};

/** How many bytes of the start of a file are sniffed. */
export const SNIFF_BYTES = 64 * 1024;

const extensionOf = (name: string) => (name.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : "");

/** Starts of an HTML document as browsers sniff them (WHATWG MIME Sniffing, "HTML"), after blanks. */
const HTML_START =
  /^[\t\n\f\r ]*<(!doctype html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|!--)[\t\n\f\r >]/i;

/** Text: no NUL byte, valid UTF-8 (a character cut at the end of the sniffed part is fine) and not HTML. */
function isPlainText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
  } catch {
    return false;
  }
  return !HTML_START.test(text.replace(/^\uFEFF/, "").slice(0, 1024));
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const EMPTY_ZIP_MAGIC = [0x50, 0x4b, 0x05, 0x06];
const startsWith = (head: Uint8Array, magic: number[]) => magic.every((b, i) => head[i] === b);

/** The content of a file from its first bytes (SNIFF_BYTES of them, or all when it is shorter). */
export async function sniffContent(head: Uint8Array): Promise<{ content: Content; mime: string } | null> {
  let detected: { ext: string; mime: string } | undefined;
  try {
    detected = await fileTypeFromBuffer(head);
  } catch {
    detected = undefined;
  }
  // Zip containers (zip, jar, docx, ...) are zips: their entries are checked as such.
  if (startsWith(head, ZIP_MAGIC) || startsWith(head, EMPTY_ZIP_MAGIC))
    return { content: "zip", mime: detected?.mime ?? "application/zip" };
  // No magic bytes (or an XML prolog, which is text too): text when it reads as text.
  if (!detected || detected.ext === "xml") return isPlainText(head) ? { content: "text", mime: "text/plain" } : null;
  const byExt: Record<string, Content> = {
    pdf: "pdf",
    png: "png",
    jpg: "jpeg",
    cfb: "cfb",
    doc: "cfb",
    rar: "rar",
    tar: "tar",
  };
  const content = byExt[detected.ext];
  return content ? { content, mime: detected.mime } : null;
}

/** Whether a file named `name` may hold `content`. */
export function extensionAllows(name: string, content: Content): boolean {
  return CONTENT_OF_EXTENSION[extensionOf(name)]?.includes(content) ?? false;
}
