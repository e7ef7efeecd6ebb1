import { and, asc, eq } from "drizzle-orm";
import { ResponseCode } from "#contract/envelope.ts";
import { IpfsServiceStatus } from "#contract/ipfs-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError } from "#backend/http/errors.ts";
import { recordFile } from "./records.ts";
import { engineOf } from "./node.ts";
import { ipfsServices } from "./tables.ts";

/**
 * What other domains store on a user's IPFS service through the api (docs/decisions/045: a DDC's file and its
 * metadata): the same engine, capacity accounting and file rows as an upload through a gateway. While the IPFS
 * node (IPFS_API_URL) is not answering, they throw `ipfsUnavailable()`: a 503 with its message, nothing done.
 */

/** The IPFS node is not answering (docs/decisions/076): MSG_45014 as an HTTP 503 with Retry-After. */
export function ipfsUnavailable(): ApiError {
  return new ApiError(Msg.IPFS_UNAVAILABLE, null, ResponseCode.FAIL, { status: 503, retryAfterSeconds: 30 });
}

/** `error` as ipfsUnavailable() when it says the node is not answering, else unchanged. */
export function unavailableAsApiError(error: unknown): unknown {
  return (error as Error)?.name === "EngineUnavailableError" ? ipfsUnavailable() : error;
}

/** The user's running IPFS services with their free bytes. */
export async function runningServicesOf(db: Db, userId: number) {
  const rows = await db
    .select()
    .from(ipfsServices)
    .where(and(eq(ipfsServices.userId, userId), eq(ipfsServices.status, IpfsServiceStatus.RUNNING)))
    .orderBy(asc(ipfsServices.id));
  return rows.map((r) => ({
    ipfsServiceId: r.id,
    name: r.name,
    freeBytes: Math.max(0, r.capacityBytes - r.usedBytes),
  }));
}

/**
 * Adds `bytes` to the user's running service `serviceId`: its CID, or null when the service is not the user's
 * running one or the file does not fit its free capacity (the pin is then taken away again).
 */
export async function storeOnService(
  deps: Deps,
  input: { userId: number; serviceId: number; name: string; contentType: string; bytes: Uint8Array },
): Promise<{ cid: string; size: number } | null> {
  const [service] = await deps.db
    .select()
    .from(ipfsServices)
    .where(
      and(
        eq(ipfsServices.id, input.serviceId),
        eq(ipfsServices.userId, input.userId),
        eq(ipfsServices.status, IpfsServiceStatus.RUNNING),
      ),
    );
  if (!service || service.capacityBytes - service.usedBytes < input.bytes.byteLength) return null;
  const engine = engineOf(deps);
  const added = await engine
    .add(
      (async function* () {
        yield input.bytes;
      })(),
    )
    .catch((error: unknown) => {
      throw unavailableAsApiError(error);
    });
  const recorded = await recordFile(
    deps.db,
    service,
    { name: input.name, cid: added.cid, size: added.size, contentType: input.contentType },
    deps.now(),
  );
  if (!recorded) {
    await engine.unpin(added.cid).catch(() => undefined);
    return null;
  }
  return added;
}

/** A pinned file's bytes (at most `maxBytes`), or null when it is not pinned. */
export async function readPinned(deps: Deps, cid: string, maxBytes: number): Promise<Buffer | null> {
  const engine = engineOf(deps);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of engine.cat(cid)) {
      size += chunk.byteLength;
      if (size > maxBytes) return null;
      chunks.push(chunk);
    }
  } catch (error) {
    if ((error as Error)?.name === "NotPinnedError") return null;
    throw unavailableAsApiError(error);
  }
  return Buffer.concat(chunks);
}
