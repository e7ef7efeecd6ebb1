import {
  json,
  unstable_composeUploadHandlers as composeUploadHandlers,
  unstable_createMemoryUploadHandler as createMemoryUploadHandler,
  unstable_parseMultipartFormData as parseMultipartFormData,
  type UploadHandler,
} from "@remix-run/node";

/**
 * Multipart forms with files checked for size while they arrive (ARCHITECTURE "Uploaded files"): a file
 * over its limit is drained, not kept, and reported as `oversize` so the form can answer a field error
 * and keep every other value the user typed.
 */
export async function parseFormWithFiles(request: Request, limits: Record<string, number>, textLimit = 64 * 1024) {
  const oversize = new Set<string>();
  const fileHandler: UploadHandler = async ({ name, filename, contentType, data }) => {
    const limit = limits[name];
    if (limit === undefined || !filename) return undefined;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of data) {
      size += chunk.byteLength;
      if (size <= limit) chunks.push(chunk);
    }
    if (size > limit) {
      oversize.add(name);
      return new File([], filename, { type: contentType });
    }
    return new File(chunks as BlobPart[], filename, { type: contentType });
  };
  let formData: FormData;
  try {
    formData = await parseMultipartFormData(
      request,
      composeUploadHandlers(fileHandler, createMemoryUploadHandler({ maxPartSize: textLimit })),
    );
  } catch (error) {
    // A body that is not a multipart form (another content type, a broken body, a text field over its
    // limit) is the sender's fault: a 400, not a 500. A browser that went away is not answered.
    if (request.signal.aborted) throw error;
    throw json({ messageKey: "errors:http.400" }, { status: 400 });
  }
  return { formData, oversize };
}

/** A form that may carry files: a multipart one is read by parseFormWithFiles, a plain one has none. */
export async function readFormWithFiles(request: Request, limits: Record<string, number>) {
  const multipart = (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data");
  return multipart ? parseFormWithFiles(request, limits) : { formData: await request.formData(), oversize: new Set<string>() };
}

/**
 * What is wrong with the file `name` of a form read by parseFormWithFiles, as an i18n key: over its limit
 * (`tooLarge`), missing (unless `optional`) or refused by `problemOf` (its type); null when it is fine.
 */
export function fileProblem(
  formData: FormData,
  oversize: Set<string>,
  name: string,
  problemOf: (f: { name: string; size: number }) => string | null,
  tooLarge: string,
  optional = false,
) {
  if (oversize.has(name)) return tooLarge;
  const file = formData.get(name);
  if (!(file instanceof File) || (!file.name && file.size === 0)) return optional ? null : "wizard:validation.file.required";
  return problemOf(file);
}

export async function fileToPayload(file: File) {
  const bytes = Buffer.from(await file.arrayBuffer());
  return { name: file.name, type: file.type, size: bytes.byteLength, dataBase64: bytes.toString("base64") };
}
