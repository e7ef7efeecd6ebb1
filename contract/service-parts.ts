import * as z from "zod";

/*
 * What one version of a service holds (SPEC §3 Chaincode package, Service function, Role, City node), in
 * the shapes both the publish wizard's draft (contract/service-wizard.ts) and a service's details
 * (contract/services.ts) answer: each adds how it refers to the other parts (by id or by name).
 */

const id = () => z.number().int();

export const packageSchema = z.object({
  packageId: id(),
  name: z.string(),
  version: z.string(),
  language: z.string(),
  initParams: z.string(),
  mainPath: z.string(),
  fileName: z.string(),
  size: id(),
});

/** A function's own fields (its package and superior are added by id or by name). */
export const functionFields = {
  functionId: id(),
  name: z.string(),
  funcType: id(),
  func: z.string(),
  crossChainAllowed: z.boolean(),
  inputFormat: z.string(),
  outputFormat: z.string(),
};

/** A role's own fields (its functions are added by id or by name). */
export const roleFields = { roleId: id(), name: z.string(), description: z.string() };

/** What a version books on one city node. */
export const bookedNodeSchema = z.object({ cityNodeId: id(), tps: id(), capacityGb: id(), peers: id() });

/** A booked node with the city node's names. */
export const namedNodeSchema = bookedNodeSchema.extend({ name: z.string(), nameZh: z.string() });

/** One row of Configuration (the list) and of a service's upgrade history. */
export const upgradeRowSchema = z.object({
  upgradeId: id(),
  upgradeNo: z.string(),
  appId: id(),
  serviceName: z.string(),
  upgradeType: id(),
  status: id(),
  reviewState: id(),
  deployState: id(),
  amountCents: id(),
  billId: id().nullable(),
  /** The bill's §4 payment status; null before the operator approves (or when there is nothing to pay). */
  payState: id().nullable(),
  createdAt: z.string(),
});
export type UpgradeRow = z.infer<typeof upgradeRowSchema>;
