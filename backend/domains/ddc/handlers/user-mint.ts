import { and, desc, eq, inArray } from "drizzle-orm";
import { BillType } from "#contract/billing-codes.ts";
import { DDC_VIEW_PATH, DdcFee, DdcStatus } from "#contract/ddc.ts";
import { ddcFeeCents } from "#backend/domains/ddc/prices.ts";
import { Msg } from "#contract/messages.ts";
import { KeyType } from "#contract/public-chain-codes.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import ipfs from "#backend/domains/ipfs/index.ts";
import publicChain from "#backend/domains/public-chain/index.ts";
import { pubChainAccounts, pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { payFee } from "#backend/domains/ddc/bills.ts";
import { ChainRefusal, Reverted, deployCollection, allowMinter, mintToken } from "#backend/domains/ddc/collection.ts";
import { failMint, finishMint } from "#backend/domains/ddc/recover.ts";
import { ddcCollections, ddcs } from "#backend/domains/ddc/tables.ts";
import { MINTABLE, gasOf, out, ownDdc, reasonOf, type Ctx, type Row } from "./shared.ts";

/** What the mint form offers (the user's projects that may mint, with their custody accounts and gas; running IPFS services; the fees). */
export async function ddcOptions(_input: Payload<"/sys/ddc/options">, ctx: Ctx) {
  const deps = ctx.deps;
  const projects = await deps.db
    .select()
    .from(pubChainProjects)
    .where(and(eq(pubChainProjects.userId, ctx.user.id), inArray(pubChainProjects.status, [...MINTABLE])))
    .orderBy(desc(pubChainProjects.id));
  const accounts = projects.length
    ? await deps.db
        .select()
        .from(pubChainAccounts)
        .where(
          and(
            eq(pubChainAccounts.userId, ctx.user.id),
            eq(pubChainAccounts.keyType, KeyType.CUSTODY),
            inArray(
              pubChainAccounts.projectId,
              projects.map((p) => p.id),
            ),
          ),
        )
    : [];
  const withGas = await Promise.all(
    accounts.map(async (a) => ({
      a,
      gasWei: (
        await gasOf(deps, projects.find((p) => p.id === a.projectId)!.chain, a.address).catch(() => 0n)
      ).toString(),
    })),
  );
  return {
    projects: projects.map((p) => ({
      projectId: p.id,
      name: p.name,
      accounts: withGas
        .filter((x) => x.a.projectId === p.id)
        .map((x) => ({ accountId: x.a.id, name: x.a.name, address: x.a.address, gasWei: x.gasWei })),
    })),
    ipfsServices: await ipfs.api.runningServicesOf(deps.db, ctx.user.id),
    mintFeeCents: await ddcFeeCents(deps.db, DdcFee.MINT),
    transferFeeCents: await ddcFeeCents(deps.db, DdcFee.TRANSFER),
  };
}

/** One deployment of a project's collection at a time in this process (the table's unique project id guards the rest). */
const deploying = new Map<number, Promise<typeof ddcCollections.$inferSelect>>();

async function collectionOf(
  deps: Deps,
  project: typeof pubChainProjects.$inferSelect,
  account: typeof pubChainAccounts.$inferSelect,
  key: string,
) {
  const [existing] = await deps.db.select().from(ddcCollections).where(eq(ddcCollections.projectId, project.id));
  if (existing) return existing;
  const running = deploying.get(project.id);
  if (running) return running;
  const work = (async () => {
    const deployed = await deployCollection(deps, project.chain, key, `${project.name} DDC`);
    const [row] = await deps.db
      .insert(ddcCollections)
      .values({
        projectId: project.id,
        ownerAccountId: account.id,
        address: deployed.address,
        txHash: deployed.txHash,
        blockNumber: deployed.blockNumber,
        createdAt: deps.now(),
      })
      .onConflictDoNothing()
      .returning();
    return row ?? (await deps.db.select().from(ddcCollections).where(eq(ddcCollections.projectId, project.id)))[0]!;
  })();
  deploying.set(project.id, work);
  try {
    return await work;
  } finally {
    deploying.delete(project.id);
  }
}

/** The metadata document of an ERC-721 token (EIP-721 metadata JSON schema, with OpenSea-style attributes). */
function metadataDocument(row: Row, fileUri: string) {
  return {
    name: row.name,
    description: row.description,
    ...(row.fileMime.startsWith("image/") ? { image: fileUri } : {}),
    file: fileUri,
    file_name: row.fileName,
    file_type: row.fileMime,
    attributes: row.metadata.map((m) => ({ trait_type: m.key, value: m.value })),
  };
}

/**
 * Mints a DDC (§9 bill type 91): the fee paid from the balance, the file on the user's IPFS service (its metadata
 * too, tokenURI ipfs://<metadata CID>) or kept by the product (tokenURI the ddc-view page), the project's
 * collection deployed on its first mint, the token (id = the DDC's id) minted to the account that signs. A
 * refusal of the chain refunds the fee and leaves the DDC failed with the chain's reason.
 */
export async function mintDdc(input: Payload<"/sys/ddc/mint">, ctx: Ctx) {
  const deps = ctx.deps;
  const me = ctx.user.id;
  const now = deps.now();
  const [replay] = await deps.db
    .select()
    .from(ddcs)
    .where(and(eq(ddcs.userId, me), eq(ddcs.idempotencyKey, input.idempotencyKey)));
  if (replay) return (await out(deps.db, [replay]))[0]!;
  const [project] = await deps.db
    .select()
    .from(pubChainProjects)
    .where(and(eq(pubChainProjects.id, input.projectId), eq(pubChainProjects.userId, me)));
  if (!project) throw new ApiError(Msg.NOT_FOUND);
  const [account] = await deps.db
    .select()
    .from(pubChainAccounts)
    .where(
      and(
        eq(pubChainAccounts.id, input.accountId),
        eq(pubChainAccounts.userId, me),
        eq(pubChainAccounts.projectId, project.id),
      ),
    );
  if (!account) throw new ApiError(Msg.NOT_FOUND);
  if (!MINTABLE.includes(project.status)) throw new ApiError(Msg.DDC_PROJECT_NOT_READY);
  if (account.keyType !== KeyType.CUSTODY || !account.keySealed)
    throw fieldError("accountId", Msg.DDC_ACCOUNT_NOT_CUSTODY, Msg.DDC_ACCOUNT_NOT_CUSTODY);
  if ((await gasOf(deps, project.chain, account.address)) === 0n)
    throw fieldError("accountId", Msg.GAS_ZERO, Msg.GAS_ZERO);
  // A service named is the user's running one, whatever the storage chosen (another user's is not found).
  if (input.ipfsServiceId || input.storage === "ipfs") {
    const services = await ipfs.api.runningServicesOf(deps.db, me);
    if (!services.some((s) => s.ipfsServiceId === input.ipfsServiceId))
      throw fieldError("ipfsServiceId", Msg.DDC_IPFS_UNAVAILABLE, Msg.DDC_IPFS_UNAVAILABLE);
  }

  // The fee, the claimed file and the DDC "minting", in one transaction.
  const row = await deps.db.transaction(async (tx) => {
    const file = await deps.files.claim(tx, input.file.uploadId, { kind: "ddc", ownerId: me, at: now });
    if (!file) throw fieldError("file", `errors:${Msg.UPLOAD_FAILED}`, Msg.UPLOAD_FAILED);
    const bill = await payFee(tx, {
      userId: me,
      billType: BillType.MINT_DDC,
      serviceName: `${project.name} · ${input.name}`,
      // The operators' fee, read in the charge's transaction (docs/decisions/073).
      cents: await ddcFeeCents(tx, DdcFee.MINT),
      at: now,
      prefix: "DM",
      dedupeKey: `ddc-mint:${me}:${input.idempotencyKey}`,
    });
    const [created] = await tx
      .insert(ddcs)
      .values({
        userId: me,
        projectId: project.id,
        accountId: account.id,
        name: input.name,
        description: input.description,
        metadata: input.metadata,
        fileName: file.name,
        fileMime: file.mime,
        fileSize: file.size,
        fileId: file.id,
        ipfsServiceId: input.storage === "ipfs" ? input.ipfsServiceId! : null,
        status: DdcStatus.MINTING,
        billId: bill.id,
        idempotencyKey: input.idempotencyKey,
        createdAt: now,
      })
      .returning();
    return created!;
  });

  const fail = (reason: string) => failMint(deps, row.id, reason);
  let tokenUri: string;
  let fileCid: string | null = null;
  let metadataCid: string | null = null;
  if (input.storage === "ipfs") {
    const stored = await deps.files.read(deps.db, row.fileId!);
    // The IPFS node not answering (docs/decisions/076) fails the mint and refunds its fee before the 503.
    const store = (name: string, contentType: string, bytes: Uint8Array) =>
      ipfs.api
        .storeOnService(deps, { userId: me, serviceId: input.ipfsServiceId!, name, contentType, bytes })
        .catch(async (error: unknown) => {
          await fail(error instanceof ApiError ? "the IPFS node is not answering" : `IPFS: ${String(error)}`);
          throw error;
        });
    const added = stored && (await store(row.fileName, row.fileMime, stored.bytes));
    const meta = added && Buffer.from(JSON.stringify(metadataDocument(row, `ipfs://${added.cid}`), null, 2));
    const metaAdded = added && meta && (await store(`${row.fileName}.metadata.json`, "application/json", meta));
    if (!added || !metaAdded) {
      await fail("the IPFS service is not running or has no room for the file");
      throw fieldError("ipfsServiceId", Msg.DDC_IPFS_UNAVAILABLE, Msg.DDC_IPFS_UNAVAILABLE);
    }
    fileCid = added.cid;
    metadataCid = metaAdded.cid;
    tokenUri = `ipfs://${metaAdded.cid}`;
    // The file lives on the user's IPFS service: the product does not keep a second copy.
    await deps.db.update(ddcs).set({ fileId: null, fileCid, metadataCid }).where(eq(ddcs.id, row.id));
    await deps.files.remove(deps.db, row.fileId!);
  } else {
    tokenUri = `${deps.env.publicUrl}${DDC_VIEW_PATH}?ddcId=${row.id}`;
  }

  const key = publicChain.api.openCustodyKey(deps.env, account.keySealed);
  let sent = false;
  try {
    const collection = await collectionOf(deps, project, account, key);
    if (collection.ownerAccountId !== account.id) {
      const [owner] = await deps.db
        .select()
        .from(pubChainAccounts)
        .where(eq(pubChainAccounts.id, collection.ownerAccountId));
      await allowMinter(
        deps,
        project.chain,
        collection.address,
        publicChain.api.openCustodyKey(deps.env, owner!.keySealed!),
        account.address,
      );
    }
    // The signed transaction's hash is kept before it is sent: a crash after the send is recovered from it.
    // When the recovery job has already failed it, nothing is sent.
    const keep = async (hash: string) => {
      const kept = await deps.db
        .update(ddcs)
        .set({ collectionId: collection.id, tokenUri, mintTxHash: hash })
        .where(and(eq(ddcs.id, row.id), eq(ddcs.status, DdcStatus.MINTING)))
        .returning({ id: ddcs.id });
      if (!kept.length) throw new ChainRefusal("the mint was ended by the recovery of interrupted mints");
      sent = true;
    };
    const minted = await mintToken(
      deps,
      project.chain,
      collection.address,
      key,
      { to: account.address, tokenId: BigInt(row.id), uri: tokenUri },
      keep,
    );
    return (await out(deps.db, [await finishMint(deps, row.id, minted.blockNumber)]))[0]!;
  } catch (error) {
    // Sent but not seen mined (no receipt in time): the DDC stays "minting" for the recovery job, never refunded early.
    if (sent && !(error instanceof Reverted)) return (await out(deps.db, [await ownDdc(deps.db, me, row.id)]))[0]!;
    const reason = reasonOf(error);
    await fail(reason);
    if (error instanceof ChainRefusal) throw new ApiError(Msg.DDC_CHAIN_REFUSED, { reason });
    throw error;
  }
}
