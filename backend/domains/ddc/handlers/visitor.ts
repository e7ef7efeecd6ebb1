import { eq } from "drizzle-orm";
import { DdcStatus } from "#contract/ddc-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { CallContext, DownloadInput, Payload } from "#backend/http/router.ts";
import type { Download } from "#backend/http/download.ts";
import ipfs from "#backend/domains/ipfs/index.ts";
import { chains } from "#backend/domains/chain/tables.ts";
import { pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { DDC_FILE_MAX_BYTES } from "#contract/ddc-codes.ts";
import { chainView, onChain } from "./shared.ts";
import { issuePass, passOpens, passwordMatches } from "#backend/domains/ddc/password.ts";
import { ddcs } from "#backend/domains/ddc/tables.ts";

/**
 * The public DDC pages' paths (SPEC §2 ddc-view; §3 QR-code password; docs/decisions/045): a minted DDC by id,
 * locked behind its QR-code password when it has one. Wrong passwords are counted per DDC and address: the
 * fifth locks that address out of that DDC for 15 minutes ("ddcPassword.lock").
 */

async function minted(deps: Deps, ddcId: number) {
  const [row] = await deps.db.select().from(ddcs).where(eq(ddcs.id, ddcId));
  if (!row || row.status !== DdcStatus.MINTED) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

type Opened = { open: true; pass: string | null } | { open: false };

async function unlock(
  ctx: CallContext,
  row: typeof ddcs.$inferSelect,
  input: { password?: string; pass?: string },
): Promise<Opened> {
  const deps = ctx.deps;
  if (!row.passwordHash) return { open: true, pass: null };
  if (input.pass && passOpens(deps.env, input.pass, row.id, row.passwordVersion, deps.now()))
    return { open: true, pass: input.pass };
  if (input.password === undefined) return { open: false };
  // Every password tried from an address, on any DDC, counts ("ddcPassword.ip", docs/decisions/067).
  await deps.limits.consume("ddcPassword.ip", deps.limits.subjectOf(ctx.clientAddress));
  const subject = `${row.id}@${deps.limits.subjectOf(ctx.clientAddress)}`;
  const lock = await deps.limits.peek("ddcPassword.lock", subject);
  if (lock.over) await deps.limits.consume("ddcPassword.lock", subject);
  if (!(await passwordMatches(input.password, row.passwordHash))) {
    await deps.limits.consume("ddcPassword.lock", subject);
    throw new ApiError(Msg.DDC_PASSWORD_WRONG, { fieldErrors: { password: [Msg.DDC_PASSWORD_WRONG] } });
  }
  await deps.limits.forget("ddcPassword.lock", subject);
  return { open: true, pass: issuePass(deps.env, row.id, row.passwordVersion, deps.now()) };
}

export async function viewDdc(input: Payload<"/anon/ddc/view">, ctx: CallContext) {
  const deps = ctx.deps;
  const row = await minted(deps, input.ddcId);
  const opened = await unlock(ctx, row, input);
  if (!opened.open) return { locked: true as const, ddcId: row.id, name: row.name };
  const where = await onChain(deps.db, row);
  const [chain] = await deps.db
    .select({ chainId: chains.chainId })
    .from(pubChainProjects)
    .innerJoin(chains, eq(chains.name, pubChainProjects.chain))
    .where(eq(pubChainProjects.id, row.projectId));
  const view = await chainView(deps, row);
  return {
    locked: false as const,
    pass: opened.pass,
    ddcId: row.id,
    tokenId: String(row.id),
    name: row.name,
    description: row.description,
    metadata: row.metadata,
    fileName: row.fileName,
    fileMime: row.fileMime,
    fileSize: row.fileSize,
    storage: row.fileCid ? ("ipfs" as const) : ("product" as const),
    fileCid: row.fileCid,
    tokenUri: row.tokenUri,
    contractAddress: where?.collection.address ?? null,
    chainId: chain?.chainId ?? null,
    owner: view.owner,
    mintedAt: row.mintedAt?.toISOString() ?? null,
    history: view.history,
  };
}

/** The file: from the user's IPFS service (its CID) or the product's storage. */
export async function ddcFile(input: DownloadInput<"ddc-file">, ctx: CallContext): Promise<Download> {
  const deps = ctx.deps;
  const row = await minted(deps, input.ddcId);
  const opened = await unlock(ctx, row, { pass: input.pass });
  if (!opened.open) throw new ApiError(Msg.NOT_FOUND);
  // Shown in the page (an image, a PDF, text): inline; the portal's route decides what it serves as such.
  if (row.fileId) return { fileId: row.fileId, name: row.fileName, mime: row.fileMime, disposition: "inline" };
  const bytes = row.fileCid ? await ipfs.api.readPinned(deps, row.fileCid, DDC_FILE_MAX_BYTES) : null;
  if (!bytes) throw new ApiError(Msg.NOT_FOUND);
  return { bytes, name: row.fileName, mime: row.fileMime, disposition: "inline" };
}
