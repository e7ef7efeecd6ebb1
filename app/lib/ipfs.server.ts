import {
  json,
  unstable_composeUploadHandlers,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";
import { IPFS_GATEWAY_PREFIX, type IpfsKeyKind } from "#contract/ipfs-codes.ts";
import type { IpfsService } from "#contract/ipfs.ts";
import { Msg } from "#contract/messages.ts";
import { notFound, type Api } from "./api.server.ts";
import { positiveId } from "./params.ts";
import { endpointBase, endpointTransport } from "./transport.server.ts";

/*
 * The console's uploads and downloads of IPFS files (docs/decisions/039) go through the service's own city node
 * gateway with the service's own key, exactly as a user's curl does: the same key states, capacity, unpaid-bill
 * and metering rules apply, and the page never holds a file whole (the form's file part is streamed on).
 */

export const IPFS = "/g/home/IPFS";

/** `?ipfsServiceId=` of the request, or a 404. */
export function serviceIdParam(request: Request): number {
  const id = positiveId(new URL(request.url).searchParams.get("ipfsServiceId"));
  if (!id) throw notFound();
  return id;
}

/** The service's key of `kind` (the backend shows it to its owner only), or the refusal's message key. */
async function keyOf(
  api: Api,
  ipfsServiceId: number,
  kind: IpfsKeyKind,
): Promise<{ ok: true; key: string } | { ok: false; messageKey: string; status: number }> {
  const result = await api.call("/sys/ipfsBusiness/ipfs/key", { ipfsServiceId, kind, action: "show" });
  if (!result.ok)
    return { ok: false, messageKey: result.messageKey, status: result.status >= 400 ? result.status : 409 };
  if (!result.data.apiKey) return { ok: false, messageKey: `errors:${Msg.IPFS_KEY_DEACTIVATED}`, status: 403 };
  return { ok: true, key: result.data.apiKey };
}

function gatewayRequest(request: Request, path: string, init: RequestInit & { duplex?: "half" }): Request {
  return new Request(`${endpointBase()}${path}`, { ...init, signal: request.signal } as RequestInit);
}

/** The message key of a gateway's refusal (`{ code, message }`), by its code, else by its status. */
async function refusalOf(response: Response): Promise<{ messageKey: string; status: number }> {
  const body = (await response.json().catch(() => null)) as { code?: unknown } | null;
  const code = typeof body?.code === "string" && /^MSG_\d{5}$/.test(body.code) ? body.code : null;
  return {
    messageKey: code ? `errors:${code}` : `errors:http.${response.status >= 500 ? 500 : response.status}`,
    status: response.status,
  };
}

export type UploadOutcome =
  | { ok: true; name: string; cid: string; size: number; alreadyStored: boolean }
  | { ok: false; messageKey: string; status: number };

/**
 * The console's upload form (multipart, one `file` field): the file is streamed to the service's first gateway
 * with its upload key while it arrives. Other fields are small texts (the intent).
 */
export async function uploadThroughGateway(request: Request, api: Api, service: IpfsService): Promise<UploadOutcome> {
  const gateway = service.gateways[0];
  if (!gateway) return { ok: false, messageKey: `errors:${Msg.IPFS_NOT_THIS_GATEWAY}`, status: 409 };
  const key = await keyOf(api, service.ipfsServiceId, "upload");
  if (!key.ok) {
    await request.body?.cancel().catch(() => undefined);
    return key;
  }
  let outcome: UploadOutcome | null = null;
  const fileHandler = async ({
    name,
    filename,
    data,
  }: {
    name: string;
    filename?: string;
    data: AsyncIterable<Uint8Array>;
  }) => {
    if (filename === undefined) return undefined;
    if (name !== "file" || !filename || outcome) {
      for await (const _ of data) void _;
      return "";
    }
    const iterator = data[Symbol.asyncIterator]();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await iterator.return?.();
      },
    });
    const response = await endpointTransport(
      gatewayRequest(request, `${IPFS_GATEWAY_PREFIX}${gateway.orgCode}/upload`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${key.key}`,
          "Content-Type": "application/octet-stream",
          "X-File-Name": encodeURIComponent(filename),
        },
        body,
        duplex: "half",
      }),
    );
    // What the gateway did not read (a refusal before the end) is read past, so the form's parsing goes on.
    for await (const _ of { [Symbol.asyncIterator]: () => iterator }) void _;
    if (!response.ok) {
      outcome = { ok: false, ...(await refusalOf(response)) };
      return "";
    }
    const answer = (await response.json()) as { cid: string; name: string; size: number; alreadyStored?: boolean };
    outcome = {
      ok: true,
      name: answer.name,
      cid: answer.cid,
      size: answer.size,
      alreadyStored: !!answer.alreadyStored,
    };
    return answer.cid;
  };
  try {
    await unstable_parseMultipartFormData(
      request,
      unstable_composeUploadHandlers(fileHandler, unstable_createMemoryUploadHandler({ maxPartSize: 4 * 1024 })),
    );
  } catch (error) {
    if (request.signal.aborted) throw error;
    throw json({ messageKey: "errors:http.400" }, { status: 400 });
  }
  return outcome ?? { ok: false, messageKey: "ipfs:upload.required", status: 400 };
}

/**
 * A file of the service, downloaded through its first gateway with its download key: the gateway's answer
 * (Range included) passed on as it streams, so the bytes are metered as any download is.
 */
export async function downloadThroughGateway(
  request: Request,
  api: Api,
  service: IpfsService,
  cid: string,
  disposition: "attachment" | "asServed" = "attachment",
): Promise<Response> {
  const gateway = service.gateways[0];
  const key = gateway ? await keyOf(api, service.ipfsServiceId, "download") : null;
  if (!gateway || !key?.ok)
    throw json(
      { messageKey: key && !key.ok ? key.messageKey : "errors:http.404" },
      { status: key && !key.ok ? key.status : 404 },
    );
  const headers = new Headers({ Authorization: `Bearer ${key.key}` });
  const range = request.headers.get("range");
  if (range) headers.set("Range", range);
  const response = await endpointTransport(
    gatewayRequest(request, `${IPFS_GATEWAY_PREFIX}${gateway.orgCode}/ipfs/${encodeURIComponent(cid)}`, {
      method: "GET",
      headers,
    }),
  );
  if (!response.ok) {
    const refused = await refusalOf(response);
    throw json({ messageKey: refused.messageKey }, { status: refused.status });
  }
  const out = new Headers();
  for (const name of [
    "content-type",
    "content-length",
    "content-range",
    "accept-ranges",
    "etag",
    "content-disposition",
    "x-content-type-options",
    "content-security-policy",
    "x-ipfs-path",
  ]) {
    const value = response.headers.get(name);
    if (value) out.set(name, value);
  }
  // "Download" saves the file (issue 30 item 11); "Open" keeps the gateway's choice (inline, or attachment for
  // content that could run script in the portal's origin).
  const served = out.get("content-disposition");
  if (disposition === "attachment" && served)
    out.set("content-disposition", served.replace(/^\s*inline\b/i, "attachment"));
  out.set("Cache-Control", "private, no-store");
  return new Response(response.body, { status: response.status, headers: out });
}
