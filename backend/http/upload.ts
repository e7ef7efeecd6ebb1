import { fail, ok } from "#contract/envelope.ts";
import { Msg } from "#contract/messages.ts";
import { FILE_NAME_HEADER, UPLOAD_FIELD, UPLOAD_KINDS, type UploadKind } from "#contract/uploads.ts";
import type { Deps } from "#backend/deps.ts";
import { declaresMoreThan, discardRest } from "#backend/kit/body-limit.ts";
import type { StoredFile } from "#backend/kit/storage.ts";
import { receiveUpload, SenderGone, type UploadRule } from "#backend/kit/uploads.ts";
import { authorize, newSecret } from "./auth.ts";
import { ApiError } from "./errors.ts";

export type UploadRules = ReadonlyMap<UploadKind, UploadRule>;

function envelope(body: unknown, status = 200, extra: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...extra },
  });
}

/** A refusal at the form's file field. */
const refused = (messageKey: string, fieldKey: string, status = 200) =>
  envelope(fail(messageKey, { fieldErrors: { [UPLOAD_FIELD]: [fieldKey] } }), status);

function fileNameOf(request: Request): string | null {
  const raw = request.headers.get(FILE_NAME_HEADER);
  if (!raw) return null;
  try {
    const name = decodeURIComponent(raw).trim();
    return name && name.length <= 255 && !/[\u0000-\u001f/\\]/.test(name) ? name : null;
  } catch {
    return null;
  }
}

/**
 * `POST /vueapi/upload/<kind>` (docs/decisions/023): the file's bytes as the body, its name in X-File-Name.
 * The caller is authenticated (the licence of a registration excepted), the name checked before a byte is
 * read, Content-Length checked against the kind's limit, then the body is counted, sniffed and (zips)
 * inflated while it arrives, and streamed to the blob store as it passes: reading stops at the first
 * refusal. An accepted file is kept through the storage adapter as a pending upload of this caller and its upload id answered; the JSON call that uses
 * the file names it by that id. Too large: HTTP 413; any other refusal: the envelope with the reason at
 * the field `file`.
 */
export async function handleUpload(
  services: Deps,
  rules: UploadRules,
  kind: UploadKind,
  request: Request,
  clientAddress: string | null = null,
): Promise<Response> {
  const rule = rules.get(kind)!;
  const { maxBytes, anonymous, permission } = UPLOAD_KINDS[kind];
  const leave = (response: Response) => {
    // What the client still sends is read and thrown away, so that it receives the answer.
    discardRest(request.body);
    return response;
  };
  let ownerId: number | null = null;
  try {
    if (anonymous) {
      // Without a session, the address pays for the storage it asks for (docs/decisions/021).
      await services.limits.consume("upload.anon.ip", services.limits.subjectOf(clientAddress));
    } else {
      ownerId = (await authorize(services, request, permission)).user.id;
    }
  } catch (error) {
    if (error instanceof ApiError) {
      const retry = error.http?.retryAfterSeconds;
      return leave(
        envelope(
          fail(error.messageKey, error.data, error.code),
          error.http?.status ?? 200,
          retry ? { "Retry-After": String(retry) } : {},
        ),
      );
    }
    throw error;
  }
  const name = fileNameOf(request);
  if (!name) return leave(refused(Msg.INVALID_PARAMS, rule.messages.required, 400));
  const nameProblem = rule.nameProblem(name);
  if (nameProblem)
    return leave(
      refused(nameProblem === rule.messages.extension ? Msg.FILE_TYPE_WRONG : Msg.INVALID_PARAMS, nameProblem),
    );
  if (declaresMoreThan(request, maxBytes)) return leave(refused(Msg.FILE_TOO_LARGE, rule.messages.tooLarge, 413));
  if (!request.body) return refused(Msg.INVALID_PARAMS, rule.messages.required);

  // Checked while it arrives and streamed to the blob store as it passes (docs/decisions/053); the row is
  // written once the last byte passed, as a pending upload of this caller.
  const uploadId = newSecret(32);
  let received: Awaited<ReturnType<typeof receiveUpload<StoredFile>>>;
  try {
    received = await receiveUpload(request.body.getReader(), name, maxBytes, rule, (bytes, mime) =>
      services.files.put(services.db, {
        name,
        mime,
        bytes,
        createdAt: services.now(),
        upload: { uploadId, kind, ownerId },
      }),
    );
  } catch (error) {
    // The sender went away (or aborted) before the end: nobody waits for an answer.
    if (error instanceof SenderGone) return envelope(fail(Msg.INVALID_PARAMS), 400);
    throw error;
  }
  if (!received.ok) {
    const status = received.reason === "tooLarge" ? 413 : 200;
    const messageKey =
      received.reason === "tooLarge"
        ? Msg.FILE_TOO_LARGE
        : received.reason === "required"
          ? Msg.INVALID_PARAMS
          : Msg.FILE_TYPE_WRONG;
    return leave(refused(messageKey, received.messageKey, status));
  }
  const stored = received.kept;
  return envelope(ok({ uploadId, name: stored.name, size: stored.size, mime: stored.mime }));
}
