import * as z from "zod";
import type { Permission } from "./team-roles.ts";

/* ------------------------------------------------------------------------------------------------
 * Uploads and request limits (docs/decisions/023). A file never travels inside a /vueapi JSON body:
 * the portal streams it to `POST /vueapi/upload/<kind>` (the raw bytes as the body, the file name in
 * the X-File-Name header, percent-encoded), the backend checks its size and content while it arrives,
 * keeps it and answers an upload id; the JSON call that uses the file carries `{ uploadId }`.
 * ---------------------------------------------------------------------------------------------- */

const MB = 1024 * 1024;

/** A /vueapi JSON body is at most 1 MB, counted while it arrives (a larger one is a 413). */
export const JSON_BODY_LIMIT_BYTES = 1 * MB;

/**
 * The kinds of upload and their limits (SPEC §5, §9): chaincode zip 60 MB; attachments 20 MB; images,
 * covers included, 5 MB (docs/decisions/011); business licence 8 MB. Only the licence may be uploaded
 * before an account exists (registration). `permission`: what the acting member's role needs to upload it
 * (docs/decisions/075; a signed-in licence upload, a certification's resubmission, is the account's).
 */
export const UPLOAD_KINDS = {
  chaincode: { maxBytes: 60 * MB, anonymous: false, permission: "services" },
  attachment: { maxBytes: 20 * MB, anonymous: false, permission: "write" },
  cover: { maxBytes: 5 * MB, anonymous: false, permission: "services" },
  licence: { maxBytes: 8 * MB, anonymous: true, permission: "account" },
  /** A verifiable credential (a JWT in a .jwt or .txt file) to verify (docs/decisions/043). */
  credential: { maxBytes: 64 * 1024, anonymous: false, permission: "services" },
  /** A DDC's image or file (docs/decisions/045): png, jpg, pdf or txt. */
  ddc: { maxBytes: 5 * MB, anonymous: false, permission: "services" },
  /** A support ticket's attachment (SPEC §9 support file 60 MB; docs/decisions/041): signed-in users only. */
  support: { maxBytes: 60 * MB, anonymous: false, permission: "write" },
} as const satisfies Record<string, { maxBytes: number; anonymous: boolean; permission: Permission }>;
export type UploadKind = keyof typeof UPLOAD_KINDS;
export const isUploadKind = (v: unknown): v is UploadKind =>
  typeof v === "string" && Object.prototype.hasOwnProperty.call(UPLOAD_KINDS, v);

/** The path of an upload kind under the /vueapi base. */
export const UPLOAD_PATH_PREFIX = "/upload/";
export const uploadPath = (kind: UploadKind) => `${UPLOAD_PATH_PREFIX}${kind}`;

/** The header carrying the file's name (percent-encoded UTF-8). */
export const FILE_NAME_HEADER = "X-File-Name";

/** An upload id: what the upload answered, and what a JSON call names a file by. */
export const uploadIdSchema = z.string().regex(/^[A-Za-z0-9_-]{32,64}$/, "validation.upload.unknown");

/** A file uploaded beforehand, as a JSON payload names it. */
export const uploadRefSchema = z.object({ uploadId: uploadIdSchema });
export type UploadRef = z.infer<typeof uploadRefSchema>;

/** The `data` of a successful upload. */
export const uploadedSchema = z.object({
  uploadId: uploadIdSchema,
  name: z.string(),
  size: z.number().int().nonnegative(),
  mime: z.string(),
});
export type Uploaded = z.infer<typeof uploadedSchema>;

/** The form field an upload's refusal is reported at in `data.fieldErrors`. */
export const UPLOAD_FIELD = "file";
