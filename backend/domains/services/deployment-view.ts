import { asc, eq } from "drizzle-orm";
import { serviceNodeEndpointPath } from "#contract/service-codes.ts";
import { VerState } from "#contract/service-status.ts";
import type { DeploymentNode } from "#contract/services.ts";
import { cityNodes } from "#backend/db/tables.ts";
import type { Deps } from "#backend/deps.ts";
import chain from "#backend/domains/chain/index.ts";
import fabric from "#backend/domains/fabric/index.ts";
import { awaitsFabricNetwork } from "./fabric-notice.ts";
import { appNodes, apps, chaincodePackages, serviceChains, type appVersions } from "./tables.ts";

/**
 * "Deployment per node" (docs/decisions/052): each booked city node of a service is one node of it. For a
 * service on its own EVM chain, a node is the endpoint /chain/service/<city node code>/<key> on that one chain,
 * and its height is the chain's block number read at the time. A Fabric service's node is a peer of its channel on
 * the embedded Fabric peer (docs/decisions/064): its height is the channel's, its endpoint the Fabric gateway's
 * address (docs/decisions/065); until its chaincode is installed there it is "booked" with no endpoint. On a connected
 * Fabric network (docs/decisions/068) the endpoint is that network's peer and no height is read. No address
 * is shown here: the contracts, with the addresses that hold their code, are in the chain's own box.
 */
export async function deploymentNodes(
  deps: Deps,
  app: typeof apps.$inferSelect,
  version: typeof appVersions.$inferSelect,
  viewerKey: string | null,
): Promise<DeploymentNode[]> {
  const { db, env } = deps;
  const nodes = await db
    .select({ n: appNodes, c: cityNodes })
    .from(appNodes)
    .innerJoin(cityNodes, eq(cityNodes.id, appNodes.cityNodeId))
    .where(eq(appNodes.verId, version.id))
    .orderBy(asc(cityNodes.id));
  const [own] = await db.select().from(serviceChains).where(eq(serviceChains.appId, app.id));
  const languages = await db
    .selectDistinct({ language: chaincodePackages.language })
    .from(chaincodePackages)
    .where(eq(chaincodePackages.verId, version.id));
  const awaitsPeer = app.framework === "fabric" && languages.length > 0;
  // Go or Java chaincode with no Fabric network connected: the service keeps its state, no chaincode runs (069).
  const awaitsNetwork =
    !env.fabricPeerEndpoint &&
    awaitsFabricNetwork(
      app.framework,
      languages.map((l) => l.language),
    );
  let height: number | null = null;
  // A Fabric service's channel, when its chaincode is installed on the embedded peer: its height and the gateway.
  let fabricNode: { height: number | null; endpoint: string | null } | null = null;
  if (app.framework === "fabric" && env.fabricNetwork && nodes.some(({ n }) => n.bookedAt)) {
    // On a connected network (docs/decisions/068) the node is its peer: its height is not read from here.
    fabricNode = { height: null, endpoint: env.fabricNetwork.endpoint };
  } else if (awaitsPeer && nodes.some(({ n }) => n.bookedAt)) {
    const peer = await fabric.api.peerFor(deps, { appCode: app.appCode }).catch(() => null);
    if (peer?.chaincode())
      fabricNode = { height: Number(peer.height()), endpoint: fabric.api.gateway(deps)?.publicUrl ?? null };
  }
  if (own && nodes.some(({ n }) => n.bookedAt)) {
    try {
      height = Number(BigInt((await chain.api.request(deps, own.chainName, { method: "eth_blockNumber" })) as string));
    } catch {
      height = null;
    }
  }
  const running = version.verState === VerState.RUNNING;
  return nodes.map(({ n, c }) => {
    const base = { cityNodeId: c.id, code: c.code, name: c.name, nameZh: c.nameZh };
    if (!n.bookedAt)
      return {
        ...base,
        height: null,
        endpoint: null,
        status: version.verState === VerState.PENDING_PUBLISH ? ("deploying" as const) : ("notDeployed" as const),
      };
    if (own)
      return {
        ...base,
        height,
        endpoint: viewerKey ? `${env.publicUrl}${serviceNodeEndpointPath(c.code)}/${viewerKey}` : null,
        status: running ? ("running" as const) : ("stopped" as const),
      };
    if (fabricNode) return { ...base, ...fabricNode, status: running ? ("running" as const) : ("stopped" as const) };
    return {
      ...base,
      height: null,
      endpoint: null,
      status: awaitsNetwork
        ? ("awaitingNetwork" as const)
        : awaitsPeer
          ? ("awaitingPeer" as const)
          : ("notAvailable" as const),
    };
  });
}
