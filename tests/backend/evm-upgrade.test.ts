import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readBackendEnv } from "#backend/env.ts";
import { createVueapi } from "#backend/index.ts";
import { jobs } from "#backend/db/tables.ts";
import { appJoinNodes } from "#backend/domains/participation/tables.ts";
import { serviceChainRpc } from "#backend/domains/services/chain-endpoint.ts";
import { runEvmBackfill } from "#backend/domains/services/evm-backfill.ts";
import { sampleSolidityChaincode } from "#backend/domains/services/samples.ts";
import { serviceChainContracts } from "#backend/domains/services/tables.ts";
import { callVueapi, loginToken, sessionOf } from "./in-process.ts";
import { olderDatabase } from "../support/upgrade-db.ts";
import { scratchDir } from "../support/scratch.ts";

/**
 * docs/decisions/052 on an upgraded database (PGlite, or PostgreSQL with DATABASE_URL): the release's data (0005)
 * migrated to the last migration before 0030, in which the running service is a XuperChain one with Solidity packages (which the
 * release kept as a booking) and its participant holds a made-up `.example` gateway. Opening the current service
 * applies 0030: every `.example` gateway is replaced (the node's endpoint path on an EVM service, else null) and
 * the one-time job is scheduled; the job deploys the packages on the service's own chain, and a run again changes
 * nothing. The participant's gateway then answers JSON-RPC.
 */
const root = path.resolve(__dirname, "../..");
const RELEASE = "release-0005_operator_suspension.sql";
const RELEASE_TAG = "0005_operator_suspension";
const BEFORE = "0029_files_off_the_database";

/** The release's service 1 (running, with a participant) as a XuperChain service with Solidity packages. */
function asXuperChain(): string[] {
  const hex = (name: string, funcs: string[]) =>
    `\\x${Buffer.from(sampleSolidityChaincode(name, funcs)).toString("hex")}`;
  return [
    `UPDATE apps SET framework = 'xuperchain' WHERE id = 1`,
    `UPDATE chaincode_packages SET language = 'solidity', main_path = 'contracts/Ledger.sol', init_params = '' WHERE ver_id = 1`,
    `UPDATE files SET bytes = '${hex("asset_cc", ["CreateAsset", "ReadAsset", "TransferAsset"])}' WHERE id = (SELECT file_id FROM chaincode_packages WHERE ver_id = 1 AND name = 'asset_cc')`,
    `UPDATE files SET bytes = '${hex("audit_cc", ["RecordAudit", "QueryAudit"])}' WHERE id = (SELECT file_id FROM chaincode_packages WHERE ver_id = 1 AND name = 'audit_cc')`,
  ];
}

describe("an upgraded database (docs/decisions/052)", () => {
  it("replaces every .example gateway and deploys running XuperChain Solidity services once", async () => {
    const data = readFileSync(path.join(root, "tests/fixtures", RELEASE), "utf8");
    expect(data).toContain(".bsn.example");
    const dataDir = scratchDir("bsn-052-");
    const { databaseUrl } = await olderDatabase(dataDir, [
      { migrateTo: RELEASE_TAG },
      { sql: data },
      { migrateTo: BEFORE },
      ...asXuperChain().map((q) => ({ sql: q })),
    ]);
    const env = readBackendEnv({
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      NODE_ENV: "test",
      TEST_CAPTCHA: "UPGRADE2",
      SESSION_SECRET: "upgrade-052-session-secret",
      PAYMENT_WEBHOOK_SECRET: "upgrade-052-webhook-secret",
      PUBLIC_URL: "https://portal.test",
    });
    const service = await createVueapi({ ...env, jobsIntervalMs: 0 });
    try {
      const db = service.services.db;
      // 0030: no .example gateway left; the XuperChain service's is its node's endpoint path; the job is due.
      const gateways = await db.select().from(appJoinNodes);
      expect(gateways.length).toBeGreaterThan(0);
      expect(gateways.filter((g) => g.gatewayUrl?.includes(".example"))).toEqual([]);
      const [{ joinApp }] = (
        (await db.execute(sql`SELECT app_id AS "joinApp" FROM app_joins WHERE id = 1`)) as {
          rows: { joinApp: number }[];
        }
      ).rows;
      expect(joinApp).toBe(1);
      const mine = gateways.filter((g) => g.joinId === 1);
      expect(mine.length).toBeGreaterThan(0);
      for (const g of mine) expect(g.gatewayUrl).toMatch(/^\/chain\/service\/cn-[a-z]{2}-01$/);
      expect(await db.select().from(jobs).where(eq(jobs.kind, "service.evmBackfill"))).toHaveLength(1);

      // The job deploys both packages on the service's chain; a run again deploys nothing more.
      await service.runJobs();
      const [job] = await db.select().from(jobs).where(eq(jobs.kind, "service.evmBackfill"));
      expect(job.doneAt, job.lastError ?? "").not.toBeNull();
      expect(await db.select().from(serviceChainContracts).where(eq(serviceChainContracts.verId, 1))).toHaveLength(2);
      await runEvmBackfill({}, service.services);
      expect(await db.select().from(serviceChainContracts).where(eq(serviceChainContracts.verId, 1))).toHaveLength(2);

      // The publisher sees the contracts and the nodes; the participant's gateway answers JSON-RPC.
      const company = await loginToken(service, "democompany");
      const detail = (await callVueapi(service, "/sys/chainAppInfo/publishedDetail", { appId: 1 }, company)).data;
      expect(detail.chain.contracts).toHaveLength(2);
      expect(detail.deployment.every((n: { status: string }) => n.status === "running")).toBe(true);
      const participant = await sessionOf(service, 1);
      const params = await callVueapi(
        service,
        "/sys/chainAppInfo/getJoinParamList",
        { appJoinAuditId: 1 },
        participant,
      );
      expect(params.code, JSON.stringify(params)).toBe(0);
      const url = params.data.gateways[0].gatewayUrl as string;
      expect(url).toMatch(/^https:\/\/portal\.test\/chain\/service\/cn-[a-z]{2}-01\/[A-Za-z0-9_-]{43}$/);
      const answer = await serviceChainRpc.handle(
        new Request(url, {
          method: "POST",
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "eth_getCode",
            params: [detail.chain.contracts[0].address, "latest"],
          }),
        }),
        service.services,
      );
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { result: string }).result.length).toBeGreaterThan(100);
    } finally {
      await service.close();
    }
  }, 240_000);
});
