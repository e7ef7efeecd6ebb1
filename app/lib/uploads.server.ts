import {
  json,
  MaxPartSizeExceededError,
  unstable_composeUploadHandlers as composeUploadHandlers,
  unstable_createMemoryUploadHandler as createMemoryUploadHandler,
  unstable_parseMultipartFormData as parseMultipartFormData,
  type UploadHandler,
} from "@remix-run/node";
import { Msg } from "#contract/messages.ts";
import { UPLOAD_FIELD, UPLOAD_KINDS, type UploadKind } from "#contract/uploads.ts";
import type { Api } from "./api.server.ts";

/*
 * Multipart forms with files (ARCHITECTURE "Uploaded files"; docs/decisions/023). A chosen file is never
 * held here: while Remix parses the form, each file part is streamed on to the backend's upload path of
 * its kind, counted as it goes, and the part's value becomes the upload id the backend answered; the
 * action's JSON call names the file by that id. A file over its kind's limit is cut off there (the
 * backend answers 413) and the rest of its part read and thrown away, so the form answers the size
 * message at its field with every other value kept.
 */

export type UploadField = {
  kind: UploadKind;
  /** What is wrong with the chosen file by its name and declared type (an i18n key), checked before a byte is sent. */
  problem: (file: { name: string; type: string; size: number }) => string | null;
  /** Shown at the field when the file is larger than its kind allows. */
  tooLarge: string;
};

export type UploadOutcome =
  | { status: "none" }
  | { status: "uploaded"; uploadId: string; name: string; size: number }
  | { status: "refused"; error: string };

/** Bytes of text fields a multipart form may carry besides its files. */
const TEXT_ALLOWANCE = 1024 * 1024;

async function drain(iterator: AsyncIterator<Uint8Array>) {
  for (;;) if ((await iterator.next()).done) return;
}

/**
 * The part's bytes as a stream, cut after the first chunk that passes `limit` (so the receiver sees the
 * excess and refuses it); `rest()` reads what is left of the part and throws it away.
 */
function cappedStream(data: AsyncIterable<Uint8Array>, limit: number) {
  const iterator = data[Symbol.asyncIterator]();
  let seen = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) return controller.close();
      seen += value.byteLength;
      controller.enqueue(value);
      if (seen > limit) controller.close();
    },
  });
  return { stream, oversize: () => seen > limit, rest: () => drain(iterator) };
}

/**
 * The request with its body cut after `limit` bytes: the whole form, files included, is at most that.
 * The remainder is read and thrown away (up to a bound) so that the answer reaches the browser.
 */
function capRequest(request: Request, limit: number) {
  if (!request.body) return { request, exceeded: () => false };
  const reader = request.body.getReader();
  let seen = 0;
  let exceeded = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      seen += value.byteLength;
      if (seen <= limit) return controller.enqueue(value);
      exceeded = true;
      controller.error(new Error("form too large"));
      void (async () => {
        for (let thrownAway = 0; thrownAway < 4 * limit;) {
          const next = await reader.read().catch(() => ({ done: true as const, value: undefined }));
          if (next.done) return;
          thrownAway += next.value.byteLength;
        }
        await reader.cancel().catch(() => undefined);
      })();
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const init: RequestInit & { duplex: "half" } = {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
    duplex: "half",
  };
  return { request: new Request(request.url, init), exceeded: () => exceeded };
}

/**
 * Parses a multipart form whose file fields are `fields` (by input name): text fields as usual (each at
 * most `textLimit`), each chosen file streamed to the backend as it arrives. Answers the form (a file
 * field's value is its upload id, or "") and, per file field, what became of its file. A form larger than
 * twice its files' limits (plus 1 MB of text) is refused with 413, as is a text field over `textLimit`.
 */
export async function parseFormWithUploads(
  request: Request,
  api: Pick<Api, "upload">,
  fields: Record<string, UploadField>,
  textLimit = 64 * 1024,
) {
  const uploads: Record<string, UploadOutcome> = Object.fromEntries(
    Object.keys(fields).map((name) => [name, { status: "none" }]),
  );
  const fileHandler: UploadHandler = async ({ name, filename, contentType, data }) => {
    if (filename === undefined) return undefined;
    const field = Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : undefined;
    // An empty file input, or a file the form does not take: read past it.
    if (!field || !filename) {
      await drain(data[Symbol.asyncIterator]());
      return "";
    }
    const problem = field.problem({ name: filename, type: contentType, size: 1 });
    if (problem) {
      await drain(data[Symbol.asyncIterator]());
      uploads[name] = { status: "refused", error: problem };
      return "";
    }
    const part = cappedStream(data, UPLOAD_KINDS[field.kind].maxBytes);
    const result = await api.upload(field.kind, { name: filename, type: contentType, body: part.stream });
    await part.rest();
    if (part.oversize()) {
      uploads[name] = { status: "refused", error: field.tooLarge };
    } else if (!result.ok) {
      uploads[name] = { status: "refused", error: result.fieldErrors[UPLOAD_FIELD]?.[0] ?? result.messageKey };
    } else {
      uploads[name] = {
        status: "uploaded",
        uploadId: result.data.uploadId,
        name: result.data.name,
        size: result.data.size,
      };
      return result.data.uploadId;
    }
    return "";
  };
  // A file over its limit is still read (and thrown away) so that the form can answer its size message:
  // up to twice the files' limits; past that the whole form is refused (413).
  const limit = 2 * Object.values(fields).reduce((sum, f) => sum + UPLOAD_KINDS[f.kind].maxBytes, 0) + TEXT_ALLOWANCE;
  const capped = capRequest(request, limit);
  let formData: FormData;
  try {
    formData = await parseMultipartFormData(
      capped.request,
      composeUploadHandlers(fileHandler, createMemoryUploadHandler({ maxPartSize: textLimit })),
    );
  } catch (error) {
    if (capped.exceeded() || error instanceof MaxPartSizeExceededError)
      throw json({ messageKey: `errors:${Msg.REQUEST_TOO_LARGE}` }, { status: 413 });
    // A body that is not a multipart form (another content type, a broken body) is the sender's fault: a
    // 400, not a 500. A browser that went away is not answered.
    if (request.signal.aborted) throw error;
    throw json({ messageKey: "errors:http.400" }, { status: 400 });
  }
  return { formData, uploads };
}

/** The error to show at a file field (an i18n key), or null: a required file not chosen is one. */
export function uploadError(outcome: UploadOutcome | undefined, required: string | null): string | null {
  if (!outcome || outcome.status === "none") return required;
  return outcome.status === "refused" ? outcome.error : null;
}

/** The upload id of a file field's accepted file. */
export function uploadRef(outcome: UploadOutcome | undefined): { uploadId: string } | undefined {
  return outcome?.status === "uploaded" ? { uploadId: outcome.uploadId } : undefined;
}
