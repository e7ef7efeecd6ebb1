import { asc, desc, eq } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import fabric from "#backend/domains/fabric/index.ts";
import services from "#backend/domains/services/index.ts";
import { appFunctions, chaincodePackages, serviceChainContracts } from "#backend/domains/services/tables.ts";
import { Msg } from "#contract/messages.ts";
import { accessAllowed } from "#contract/participation.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { DownloadInput, SignedInContext } from "#backend/http/router.ts";
import { appCas, certificates } from "./tables.ts";
import { appById, currentVersion, joinNodes, me, ownJoin } from "./handlers/shared.ts";
import { EVM_SAMPLE, FABRIC_SAMPLE, kitPackageJson, kitReadme, type KitFacts } from "./kit-files.ts";

/**
 * The participant's access kit (issue 28 item 7; docs/decisions/070): one zip with what reaching a running service
 * takes, read from what the portal already shows on the Access page. It holds the certificate chain, never a
 * private key (mode 1's key is handed out once, mode 2's is a separate download, mode 3's never reached us).
 */
export async function accessKit(input: DownloadInput<"participant-access-kit">, ctx: SignedInContext) {
  const { db, env } = ctx.deps;
  const join = await ownJoin(db, me(ctx).id, input.appJoinAuditId);
  const app = (await appById(db, join.appId))!;
  const version = await currentVersion(db, app);
  if (
    !version ||
    !join.userCode ||
    !accessAllowed({ auditState: join.auditState, verState: version.verState, disabled: !!join.disabledAt })
  )
    throw new ApiError(Msg.ACCESS_NOT_AVAILABLE);
  const [cert] = await db
    .select()
    .from(certificates)
    .where(eq(certificates.joinId, join.id))
    .orderBy(desc(certificates.id))
    .limit(1);
  const [ca] = await db.select().from(appCas).where(eq(appCas.appId, app.id));
  if (!cert || !ca || cert.revokedAt) throw new ApiError(Msg.ACCESS_NOT_AVAILABLE);
  const nodes = await joinNodes(db, join.id);
  const base = {
    appCode: app.appCode,
    name: app.name,
    userCode: join.userCode,
    certificateMode: cert.mode,
    version: version.version,
  };
  const files: Record<string, string> = {
    "certificate.pem": cert.certificatePem.trim() + "\n",
    "ca.pem": ca.certificatePem.trim() + "\n",
    "certificate-chain.pem": `${cert.certificatePem.trim()}\n${ca.certificatePem.trim()}\n`,
  };
  let facts: KitFacts;
  if (app.framework === "fabric") {
    const gateway = fabric.api.gateway(ctx.deps);
    if (!gateway) throw new ApiError(Msg.ACCESS_NOT_AVAILABLE);
    const functions = await db
      .select({ func: appFunctions.func, funcType: appFunctions.funcType, inputFormat: appFunctions.inputFormat })
      .from(appFunctions)
      .where(eq(appFunctions.verId, version.id))
      .orderBy(asc(appFunctions.id));
    facts = {
      ...base,
      kind: "fabric",
      gateway: gateway.publicUrl,
      nodes: nodes.map((n) => ({ code: n.code, name: n.name, nameZh: n.nameZh, endpoint: gateway.publicUrl })),
      channel: fabric.api.channelOf({ appCode: app.appCode }),
      chaincode: app.appCode.toLowerCase(),
      mspId: fabric.api.mspIdOf(app.appCode),
      functions: functions.map((f) => ({
        name: f.func,
        call: f.funcType === 2 ? ("evaluate" as const) : ("submit" as const),
        args: f.inputFormat,
      })),
    };
    files["tls-ca.pem"] = gateway.caPem.trim() + "\n";
    files["sample.mjs"] = FABRIC_SAMPLE;
  } else {
    const chain = await services.api.serviceChainView(db, env, app.id, version.id, join.userId, ctx.deps.now());
    if (!chain) throw new ApiError(Msg.ACCESS_NOT_AVAILABLE);
    const contracts = await db
      .select({
        packageName: chaincodePackages.name,
        contractName: serviceChainContracts.contractName,
        address: serviceChainContracts.address,
        abi: serviceChainContracts.abi,
      })
      .from(serviceChainContracts)
      .innerJoin(chaincodePackages, eq(chaincodePackages.id, serviceChainContracts.packageId))
      .where(eq(serviceChainContracts.verId, version.id))
      .orderBy(asc(serviceChainContracts.id));
    facts = {
      ...base,
      kind: "evm",
      chainId: chain.chainId,
      chainName: chain.chainName,
      nodes: nodes
        .filter((n) => n.gatewayUrl)
        .map((n) => ({
          code: n.code,
          name: n.name,
          nameZh: n.nameZh,
          endpoint: `${env.publicUrl}${n.gatewayUrl}/${chain.key}`,
        })),
      contracts: contracts.map((c) => ({
        packageName: c.packageName,
        contractName: c.contractName,
        address: c.address,
        abiFile: `abi/${c.contractName}.json`,
      })),
    };
    for (const c of contracts) files[`abi/${c.contractName}.json`] = JSON.stringify(c.abi, null, 2) + "\n";
    files["sample.mjs"] = EVM_SAMPLE;
  }
  files["kit.json"] = JSON.stringify(facts, null, 2) + "\n";
  files["package.json"] = kitPackageJson(facts);
  files["README.md"] = kitReadme(facts, ctx.language);
  const folder = `${app.appCode.toLowerCase()}-access-kit`;
  const zip = zipSync(
    Object.fromEntries(Object.entries(files).map(([name, text]) => [`${folder}/${name}`, strToU8(text)])),
  );
  return { bytes: Buffer.from(zip), name: `${folder}.zip`, mime: "application/zip" };
}
