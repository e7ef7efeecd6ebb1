import { randomBytes } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import { appFunctions, appNodes, appRoleFunctions, appRoles, appVersions, apps, chaincodePackages } from "./tables.ts";
import { cityNodes } from "#backend/db/tables.ts";
import type { FileStore } from "#backend/kit/storage.ts";
import {
  SAMPLE_MAIN_PATH,
  SAMPLE_SOLIDITY_MAIN_PATH,
  sampleChaincode,
  sampleSolidityChaincode,
  type SampleKind,
} from "./samples.ts";

/**
 * A complete service version in verState 1 (what the publish wizard of the other issue produces), for the
 * demo data and the tests-only fixture: two chaincode packages of real zip bytes, functions, roles with
 * function permissions, city nodes and a cost. Callers move it on through the lifecycle.
 */
export type DraftSpec = {
  userId: number;
  name: string;
  version?: string;
  free?: boolean;
  costCents?: number;
  badPackage?: Exclude<SampleKind, "good">;
  tps?: number;
  capacityGb?: number;
  nodeCount?: number;
  description?: string;
  /**
   * An EVM framework (fisco, the default; cita; xuperchain): Solidity packages for the service's own chain
   * (docs/decisions/038, 052); fabric: Node.js packages (deployed once the Fabric peer exists).
   */
  framework?: "fabric" | "fisco" | "cita" | "xuperchain";
  /** Packages already stored (e.g. a chaincode market entry, as the wizard copies one), instead of the samples. */
  packages?: DraftPackage[];
  now: Date;
  /** Where the packages' zips are stored (deps.files). */
  files: FileStore;
};

/** A stored package of a draft with its functions (the columns of chaincode_packages and app_functions). */
export type DraftPackage = {
  name: string;
  version: string;
  language: string;
  initParams: string;
  mainPath: string;
  fileId: number;
  fileName: string;
  size: number;
  functions: { name: string; funcType: number; func: string; inputFormat: string; outputFormat: string }[];
};

export function newAppCode() {
  return `APP${randomBytes(5).toString("hex").toUpperCase()}`;
}

const PACKAGES = [
  {
    name: "asset_cc",
    funcs: [
      ["Create asset", "CreateAsset", 1],
      ["Read asset", "ReadAsset", 2],
      ["Transfer asset", "TransferAsset", 1],
    ],
  },
  {
    name: "audit_cc",
    funcs: [
      ["Record audit", "RecordAudit", 1],
      ["Query audit", "QueryAudit", 2],
    ],
  },
] as const;

export async function buildDraft(db: Db | Tx, spec: DraftSpec) {
  const now = spec.now;
  const [app] = await db
    .insert(apps)
    .values({
      appCode: newAppCode(),
      userId: spec.userId,
      name: spec.name,
      // Codes of the wizard's lists (contract/service-wizard.ts), so the draft can be edited there.
      industry: "logistics",
      description: spec.description ?? "Traceability of goods between logistics partners on a consortium chain.",
      introduction: "Partners record each hand-over of a shipment; auditors read the history.",
      framework: spec.framework ?? "fisco",
      platformType: "web",
      accessMethods: { webUrl: "https://trace.example.com" },
      freeYN: spec.free ? 1 : 0,
      paymentCycle: 2,
      contactName: "Li Wei",
      contactMobile: "+8613900000011",
      contactEmail: "li.wei@example.com",
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const [version] = await db
    .insert(appVersions)
    .values({
      appId: app.id,
      version: spec.version ?? "1.0.0",
      verState: 1,
      wizardStep: "cost",
      certificateMode: 1,
      costCents: spec.free ? 0 : (spec.costCents ?? 12_000),
      agreementAcceptedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await db.update(apps).set({ currentVerId: version.id }).where(eq(apps.id, app.id));
  const functionIds: number[] = [];
  const packages = spec.packages ?? (await samplePackages(db, spec, now));
  for (const pkg of packages) {
    const { functions, ...columns } = pkg;
    const [row] = await db
      .insert(chaincodePackages)
      .values({ verId: version.id, ...columns, createdAt: now })
      .returning({ id: chaincodePackages.id });
    let parentId: number | null = null;
    for (const f of functions) {
      const [fn]: { id: number }[] = await db
        .insert(appFunctions)
        .values({ verId: version.id, packageId: row.id, ...f, parentId })
        .returning({ id: appFunctions.id });
      parentId ??= fn.id;
      functionIds.push(fn.id);
    }
  }
  const [admin] = await db
    .insert(appRoles)
    .values({ verId: version.id, name: "Administrator", description: "Manages assets and audits." })
    .returning({ id: appRoles.id });
  const [auditor] = await db
    .insert(appRoles)
    .values({ verId: version.id, name: "Auditor", description: "Reads the audit trail." })
    .returning({ id: appRoles.id });
  await db.insert(appRoleFunctions).values(functionIds.map((functionId) => ({ roleId: admin.id, functionId })));
  await db
    .insert(appRoleFunctions)
    .values(functionIds.slice(-1).map((functionId) => ({ roleId: auditor.id, functionId })));
  const nodes = await db
    .select()
    .from(cityNodes)
    .orderBy(asc(cityNodes.id))
    .limit(spec.nodeCount ?? 2);
  await db.insert(appNodes).values(
    nodes.map((n) => ({
      verId: version.id,
      cityNodeId: n.id,
      tps: spec.tps ?? 100,
      capacityGb: spec.capacityGb ?? 50,
      peers: Math.min(n.peers, 2),
    })),
  );
  return { app, version };
}

/** The sample packages of a draft (asset_cc and audit_cc), stored: Solidity for an EVM framework, else Node.js. */
async function samplePackages(db: Db | Tx, spec: DraftSpec, now: Date): Promise<DraftPackage[]> {
  const out: DraftPackage[] = [];
  // A Fabric channel runs one chaincode (docs/decisions/064, 069): a Fabric draft has one Node.js package with all
  // the functions; an EVM draft has two Solidity packages.
  const packages =
    spec.framework === "fabric"
      ? [{ name: "ledger_cc", funcs: [...PACKAGES[0].funcs, ...PACKAGES[1].funcs] }]
      : PACKAGES;
  for (const [i, pkg] of packages.entries()) {
    const funcs = pkg.funcs.map((f) => f[1] as string);
    const kind: SampleKind = i === 0 && spec.badPackage ? spec.badPackage : "good";
    const solidity = spec.framework !== "fabric";
    const bytes = Buffer.from(
      solidity ? sampleSolidityChaincode(pkg.name, funcs, kind) : sampleChaincode(pkg.name, funcs, kind),
    );
    const fileName = `${pkg.name}.zip`;
    const file = await spec.files.put(db, { name: fileName, mime: "application/zip", bytes, createdAt: now });
    const code = solidity
      ? { language: "solidity", initParams: "", mainPath: SAMPLE_SOLIDITY_MAIN_PATH }
      : { language: "node", initParams: "init,1", mainPath: SAMPLE_MAIN_PATH };
    out.push({
      name: pkg.name,
      version: "1.0.0",
      ...code,
      fileId: file.id,
      fileName,
      size: bytes.length,
      functions: pkg.funcs.map(([name, func, funcType]) => ({
        name,
        funcType,
        func,
        inputFormat: '{"id":"string"}',
        outputFormat: '{"ok":"boolean"}',
      })),
    });
  }
  return out;
}
