import type * as z from "zod";
import type { Access } from "./path-spec.ts";

/**
 * One download kind (docs/decisions/053): `POST /vueapi/download/<kind>` with a JSON payload (the same
 * rules as a /vueapi path: 1 MB at most, the caller's token for "user" and "operator") answers the file's
 * bytes, not the JSON envelope: its type, `Content-Disposition`, `ETag`, and a single `Range` honoured
 * (206, or 416). A refusal is the envelope, as on any path.
 */
export type DownloadSpec = Access & { payload: z.ZodType };
