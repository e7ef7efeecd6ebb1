// bench:fabric's set-up of the portal's own gateway (bench/fabric.ts): in the bench's process, on the data directory
// the measured production server opens next (the same SESSION_SECRET: the service CA's key is sealed with it), a
// publisher's running Fabric service (the /test/services fixture), a participant joined with its own key
// (certificate mode 3) and approved, and the bench's chaincode installed on the service's channel as its next
// version. Answers the participant's identity and where to call.
import { eq } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import fabric from "#backend/domains/fabric/index.ts";
import { admitCaller, channelOfAppCode, mspIdOfAppCode } from "#backend/domains/fabric/gateway/admit.ts";
import { certificates } from "#backend/domains/participation/tables.ts";
import { apps } from "#backend/domains/services/tables.ts";
import { joinedParticipant, okAs, openFabric } from "../tests/backend/fabric-support.ts";
import { insertedUser } from "../tests/backend/in-process.ts";
import { waitFor } from "../tests/support/wait.ts";

/** The bench's chaincode: put and get of one key (fabric-contract-api, as a publisher ships it). */
export function lotsPackage(): Uint8Array {
  const source = `"use strict";
const { Contract } = require("fabric-contract-api");
class Lots extends Contract {
  async put(ctx, key, value) { await ctx.stub.putState(key, Buffer.from(value)); return value; }
  async get(ctx, key) { return (await ctx.stub.getState(key)).toString(); }
}
module.exports.contracts = [Lots];
`;
  const manifest = {
    name: "lots",
    version: "1.0.0",
    main: "index.js",
    dependencies: { "fabric-contract-api": "2.5.8" },
  };
  return zipSync({ "index.js": strToU8(source), "package.json": strToU8(JSON.stringify(manifest)) });
}

export async function fabricParticipant({ dataDir, secret }: { dataDir: string; secret: string }) {
  // The sealing kit reads SESSION_SECRET from the process's own environment (backend/kit/sealed.ts).
  process.env.SESSION_SECRET = secret;
  const service = await openFabric(dataDir, undefined, {
    SESSION_SECRET: secret,
    TEST_FIXTURES: "1",
    DEMO: "1",
    JOBS_INTERVAL_MS: "0",
    FABRIC_GATEWAY_PORT: "0",
  });
  try {
    const deps = service.services;
    const pub = await insertedUser(service, `benchpub${Date.now()}`);
    const svc = await okAs(service, pub, "/test/services", { verState: 25, framework: "fabric" });
    const { joinId, own } = await joinedParticipant(service, {
      pub,
      appId: svc.appId,
      appVerId: svc.appVerId,
      mode: 3,
      tag: "bench",
    });
    const [{ appCode }] = await deps.db.select({ appCode: apps.appCode }).from(apps).where(eq(apps.id, svc.appId));
    const [cert] = await deps.db.select().from(certificates).where(eq(certificates.joinId, joinId));
    await waitFor(
      "the participation gives access",
      async () => {
        await service.runJobs();
        return admitCaller(deps.db, svc.appId, cert!.certificatePem);
      },
      (c) => c !== null,
    );
    const chaincode = appCode!.toLowerCase();
    await fabric.api.installChaincode(deps, {
      appCode: appCode!,
      name: chaincode,
      version: "2.0",
      packageZip: lotsPackage(),
    });
    return {
      mspId: mspIdOfAppCode(appCode!),
      certificatePem: cert!.certificatePem,
      privateKey: own!.privateKey,
      channel: channelOfAppCode(appCode!),
      chaincode,
    };
  } finally {
    await service.close();
  }
}
