import * as z from "zod";
import type { PathSpec } from "./path-spec.ts";
import { pageOf, pagingFields } from "./platform.ts";
import { CONFIRM_NAME_MAX } from "./services.ts";
import { idempotencyKey, required } from "./rules.ts";
import {
  PRN_CYCLES,
  PRN_DATA_CAPACITY_GBS,
  PRN_FRAMEWORK_CODES,
  PRN_HOST_CONFIG_CODES,
  PRN_NAME_RE,
  PRN_PASSWORD_RE,
  PRN_PEERS_MAX,
  PRN_PEERS_MIN,
  PRN_STATUSES,
  PRN_UPDATE_TYPES,
  PRN_USER_RE,
  consensusOf,
} from "./dedicated-nodes-codes.ts";
export * from "./dedicated-nodes-codes.ts";

/*
 * Dedicated nodes (SPEC §2 PrivatedNodes*, §3 dedicated node project, §4, §5 "Dedicated node", §6/§7
 * h5isHasNoPayBillV2 payType 2, §8 "Insufficient resources", §9; docs/decisions/047): a project is a real
 * network (orderer, peers, gateway, CA) run by the chain domain's provisioner, paid per month or year from the
 * balance, upgraded (node count, host configuration, data capacity), renewed, unsubscribed and deleted.
 * Field messages are keys of the `dedicatedNodeRules` namespace (locales/<language>/dedicatedNodeRules.json).
 */

const id = () => z.coerce.number().int().positive();
const V = (key: string) => `dedicatedNodeRules:validation.${key}`;

export const prnName = () => required().regex(PRN_NAME_RE, V("name"));
export const prnPassword = () => required().regex(PRN_PASSWORD_RE, V("password"));
export const prnUser = () => required().regex(PRN_USER_RE, V("user"));
const nodeCount = () =>
  z.coerce
    .number({ error: V("nodeCount") })
    .int(V("nodeCount"))
    .min(PRN_PEERS_MIN, V("nodeCount"))
    .max(PRN_PEERS_MAX, V("nodeCount"));
const hostConfig = () => z.enum(PRN_HOST_CONFIG_CODES, { error: V("hostConfig") });
const dataCapacityGb = () =>
  z.coerce
    .number({ error: V("dataCapacity") })
    .int(V("dataCapacity"))
    .refine((n) => PRN_DATA_CAPACITY_GBS.includes(n), V("dataCapacity"));
const cycle = () =>
  z.coerce
    .number({ error: V("cycle") })
    .int()
    .refine((n) => (PRN_CYCLES as readonly number[]).includes(n), V("cycle"));

/** One node of a project's network, as the provisioner reports it (backend/domains/chain/dedicated/types.ts). */
export const prnNodeSchema = z.object({
  name: z.string(),
  /** SPEC §4 node component type: 1 peer, 2 gateway, 3 orderer, 4 CA. */
  type: z.number().int(),
  status: z.enum(["starting", "running", "syncing", "stopped", "failed"]),
  /** A path on this site (the portal makes it absolute). */
  endpoint: z.string(),
  height: z.number().int().nullable(),
  lag: z.number().int().nullable(),
  requestsPerMinute: z.number(),
  bytesUsed: z.number(),
  /** What the node enforces now (docs/decisions/074): calls per second and the storage limit; null: none (the CA). */
  limits: z.object({ requestsPerSecond: z.number().int(), storageBytes: z.number() }).nullable(),
  certificate: z
    .object({ subject: z.string(), serial: z.string(), notAfter: z.string(), fingerprint: z.string() })
    .nullable(),
});
export type PrnNode = z.infer<typeof prnNodeSchema>;

/** A city node of the catalogue as a region, with the peers it can still take (its capacity minus running projects'). */
export const prnRegionSchema = z.object({
  nodeId: z.number().int(),
  code: z.string(),
  name: z.string(),
  nameZh: z.string(),
  address: z.string(),
  addressZh: z.string().nullable(),
  freePeers: z.number().int(),
});

export const prnOptionsSchema = z.object({
  frameworks: z.array(z.object({ framework: z.string(), label: z.string(), consensus: z.array(z.string()) })),
  /** The clouds of the city-node catalogue (cloudProvider), each with its city nodes as regions. */
  clouds: z.array(z.object({ cloud: z.string(), cloudZh: z.string().nullable(), regions: z.array(prnRegionSchema) })),
  hostConfigs: z.array(
    z.object({
      code: z.string(),
      cpu: z.number().int(),
      memoryGb: z.number().int(),
      peerPricePerMonthCents: z.number().int(),
    }),
  ),
  dataCapacities: z.array(z.object({ gb: z.number().int(), pricePerMonthCents: z.number().int() })),
  peersMin: z.number().int(),
  peersMax: z.number().int(),
  basePricePerMonthCents: z.number().int(),
  yearMonths: z.number().int(),
  cycles: z.array(z.number().int()),
});
export type PrnOptions = z.infer<typeof prnOptionsSchema>;

/** The price of a configuration: what one month and one year cost, and the chosen cycle's price. */
export const prnQuoteSchema = z.object({
  monthCents: z.number().int(),
  yearCents: z.number().int(),
  cycle: z.number().int(),
  priceCents: z.number().int(),
  periodDays: z.number().int(),
});
export const prnQuotePayloadSchema = z.object({
  nodeCount: nodeCount(),
  hostConfig: hostConfig(),
  dataCapacityGb: dataCapacityGb(),
  cycle: cycle(),
});

export const prnProjectSchema = z.object({
  prnProjectId: z.number().int(),
  name: z.string(),
  framework: z.string(),
  consensus: z.string(),
  cloud: z.string(),
  nodeId: z.number().int(),
  regionCode: z.string(),
  regionName: z.string(),
  regionNameZh: z.string(),
  nodeCount: z.number().int(),
  hostConfig: z.string(),
  dataCapacityGb: z.number().int(),
  /** 1 yearly, 2 monthly. */
  cycle: z.number().int(),
  authUser: z.string(),
  /** SPEC §4: 1 not deployed, 2 deploying, 3 running, 4 failed, 5 deleted, 6 unsubscribed. */
  status: z.number().int(),
  /** Why the deployment failed (status 4), or why the project was stopped (renewal not paid). */
  failReason: z.string().nullable(),
  /** The price of one period of the current configuration (USD cents). */
  priceCents: z.number().int(),
  periodStart: z.string(),
  periodEnd: z.string(),
  /** The nodes were stopped because the renewal could not be paid (its bill is unpaid). */
  suspended: z.boolean(),
  /** When the nodes' data is (or was) removed: the end of the paid period, once deleted or unsubscribed. */
  purgeAt: z.string().nullable(),
  purgedAt: z.string().nullable(),
  billId: z.number().int().nullable(),
  billNo: z.string().nullable(),
  /** The gateway's path on this site (JSON-RPC, HTTP Basic with the authorized user). */
  gatewayPath: z.string(),
  /** The upgrade being applied, if any (one at a time). */
  openUpgradeId: z.number().int().nullable(),
  createdAt: z.string(),
});
export type PrnProject = z.infer<typeof prnProjectSchema>;

export const prnDetailSchema = prnProjectSchema.extend({
  /** The network as the provisioner reports it now; null when it is not deployed (or removed). */
  network: z
    .object({
      chainId: z.number().int(),
      state: z.enum(["running", "stopped"]),
      consensus: z.string(),
      peers: z.number().int(),
      nodes: z.array(prnNodeSchema),
      caCertificatePem: z.string(),
    })
    .nullable(),
});
export type PrnDetail = z.infer<typeof prnDetailSchema>;

/** The create form: SPEC §3 fields and §5 rules (the server re-checks name uniqueness, the region and its free peers). */
export const prnCreateSchema = z
  .object({
    name: prnName(),
    framework: z.enum(PRN_FRAMEWORK_CODES, { error: V("framework") }),
    consensus: required(),
    cloud: required(),
    /** The region: a city node of the catalogue (its nodeId) whose cloudProvider is `cloud`. */
    nodeId: z.coerce
      .number({ error: V("region") })
      .int(V("region"))
      .positive(V("region")),
    nodeCount: nodeCount(),
    hostConfig: hostConfig(),
    dataCapacityGb: dataCapacityGb(),
    cycle: cycle(),
    authUser: prnUser(),
    password: prnPassword(),
    confirmPassword: required(),
    idempotencyKey: idempotencyKey(),
  })
  .superRefine((v, ctx) => {
    if (v.framework && v.consensus && !consensusOf(v.framework).includes(v.consensus))
      ctx.addIssue({ code: "custom", path: ["consensus"], message: V("consensus") });
    if (v.password && v.confirmPassword && v.password !== v.confirmPassword)
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: V("confirmPassword") });
  });
export type PrnCreateInput = z.input<typeof prnCreateSchema>;

const projectRef = z.object({ prnProjectId: id() });
/**
 * Unsubscribe stops paid, running nodes: confirmed by typing the project's name (docs/decisions/029). When
 * present, a name that does not match is refused with a field error on `confirmName` and nothing changes.
 */
const unsubscribeRef = projectRef.extend({ confirmName: z.string().max(CONFIRM_NAME_MAX).optional() });

/** SPEC §4 Dedicated node upgrade: 1 upgrading, 2 success, 3 failed. `fromValue`/`toValue` as the type says. */
export const prnUpgradeSchema = z.object({
  prnProjectUpdateId: z.number().int(),
  prnProjectId: z.number().int(),
  projectName: z.string(),
  /** 1 node count, 2 host configuration, 3 data capacity (GB). */
  updateType: z.number().int(),
  fromValue: z.string(),
  toValue: z.string(),
  /** The price difference paid for the rest of the period (USD cents). */
  priceDiffCents: z.number().int(),
  status: z.number().int(),
  failReason: z.string().nullable(),
  billId: z.number().int().nullable(),
  billNo: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type PrnUpgrade = z.infer<typeof prnUpgradeSchema>;

const upgradeChoice = z.object({
  value: z.string(),
  priceDiffCents: z.number().int(),
  fullPeriodDiffCents: z.number().int(),
});
/** The new-upgrade page: the project's configuration, the values it may move to (with what they cost now), the open upgrade. */
export const prnUpgradeOptionsSchema = z.object({
  prnProjectId: z.number().int(),
  name: z.string(),
  status: z.number().int(),
  nodeCount: z.number().int(),
  hostConfig: z.string(),
  dataCapacityGb: z.number().int(),
  /** Bytes the largest node uses: data capacity cannot go below it. */
  usedBytes: z.number(),
  cycle: z.number().int(),
  periodEnd: z.string(),
  remainingDays: z.number().int(),
  periodDays: z.number().int(),
  openUpgradeId: z.number().int().nullable(),
  nodeCounts: z.array(upgradeChoice),
  hostConfigs: z.array(upgradeChoice),
  dataCapacities: z.array(upgradeChoice),
});

export const prnUpgradeCreateSchema = z.object({
  prnProjectId: id(),
  updateType: z.coerce
    .number({ error: V("updateType") })
    .int()
    .refine((n) => (PRN_UPDATE_TYPES as readonly number[]).includes(n), V("updateType")),
  /** The new node count, host configuration code or data capacity in GB, as `updateType` says. */
  toValue: required(),
  idempotencyKey: idempotencyKey(),
});
export const prnUpgradeQuotePayloadSchema = prnUpgradeCreateSchema.omit({ idempotencyKey: true });
export const prnUpgradeQuoteSchema = z.object({
  updateType: z.number().int(),
  fromValue: z.string(),
  toValue: z.string(),
  priceDiffCents: z.number().int(),
  fullPeriodDiffCents: z.number().int(),
  remainingDays: z.number().int(),
});

/** Change password: the new authorized password, twice. */
export const prnPasswordSchema = z
  .object({ prnProjectId: id(), password: prnPassword(), confirmPassword: required() })
  .superRefine((v, ctx) => {
    if (v.password && v.confirmPassword && v.password !== v.confirmPassword)
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: V("confirmPassword") });
  });

/** "Try it": one JSON-RPC call through the project's gateway with the authorized user and the password typed. */
export const prnTrySchema = z.object({
  prnProjectId: id(),
  method: required().pipe(
    z
      .string()
      .max(64, V("method"))
      .regex(/^[A-Za-z][A-Za-z0-9_]*$/, V("method")),
  ),
  /** The params as JSON text (an array); empty means []. */
  params: z
    .string()
    .trim()
    .max(4000, V("params"))
    .optional()
    .refine((text) => {
      if (!text) return true;
      try {
        return Array.isArray(JSON.parse(text));
      } catch {
        return false;
      }
    }, V("params")),
  password: required().pipe(z.string().max(64, V("password"))),
});
export const prnTryResultSchema = z.object({ status: z.number().int(), body: z.unknown() });

const statusAnswer = z.object({
  prnProjectId: z.number().int(),
  status: z.number().int(),
  purgeAt: z.string().nullable(),
});

export const dedicatedNodePaths = {
  /** Frameworks and their consensus, clouds and regions (city-node catalogue, free peers), host configurations, data capacities, prices. */
  "/sys/prn/options": { auth: "user", permission: "read", payload: z.object({}), data: prnOptionsSchema },
  /** The price of a configuration per month and per year, shown before paying. */
  "/sys/prn/quote": { auth: "user", permission: "read", payload: prnQuotePayloadSchema, data: prnQuoteSchema },
  /** The caller's projects, newest first; deleted ones (5) only when the filter asks for them. */
  "/sys/prn/list": {
    auth: "user",
    permission: "read",
    payload: z.object({
      ...pagingFields,
      status: z.coerce
        .number()
        .int()
        .refine((n) => (PRN_STATUSES as readonly number[]).includes(n))
        .optional(),
    }),
    data: pageOf(prnProjectSchema),
  },
  /**
   * A new project: the first period paid from the balance (a dedicated-node bill, MSG_30001 when short), then
   * the deploy job runs it (1 → 2 → 3, or 4 with the reason). Refused while a payType 2 bill blocks (MSG_30005),
   * or when the region cannot take the peers (MSG_37018). The same idempotency key answers the first request.
   */
  "/sys/prn/create": {
    auth: "user",
    permission: "services",
    payload: prnCreateSchema,
    data: prnProjectSchema.extend({ replayed: z.boolean() }),
  },
  /** The project with its network's nodes, live (height, lag, requests per minute, bytes used, certificates). */
  "/sys/prn/detail": { auth: "user", permission: "read", payload: projectRef, data: prnDetailSchema },
  "/sys/prn/upgrade/list": {
    auth: "user",
    permission: "read",
    payload: z.object({ ...pagingFields, prnProjectId: id() }),
    data: pageOf(prnUpgradeSchema),
  },
  "/sys/prn/upgrade/options": { auth: "user", permission: "read", payload: projectRef, data: prnUpgradeOptionsSchema },
  "/sys/prn/upgrade/quote": {
    auth: "user",
    permission: "read",
    payload: prnUpgradeQuotePayloadSchema,
    data: prnUpgradeQuoteSchema,
  },
  /** Pays the difference for the rest of the period, then the upgrade job applies it (1 → 2, or 3 with the reason). */
  "/sys/prn/upgrade/create": {
    auth: "user",
    permission: "services",
    payload: prnUpgradeCreateSchema,
    data: prnUpgradeSchema.extend({ replayed: z.boolean() }),
  },
  "/sys/prn/upgrade/detail": {
    auth: "user",
    permission: "read",
    payload: z.object({ prnProjectUpdateId: id() }),
    data: prnUpgradeSchema,
  },
  /** The gateway's authorized password (new and confirmed). */
  "/sys/prn/password": {
    auth: "user",
    permission: "services",
    payload: prnPasswordSchema,
    data: z.object({ prnProjectId: z.number().int() }),
  },
  /** Unsubscribe a running project (3 → 6): nodes stopped, no renewal, data removed at the period's end. */
  "/sys/prn/unsubscribe": { auth: "user", permission: "services", payload: unsubscribeRef, data: statusAnswer },
  /** Delete a project that does not run (1, 4, 6 → 5): nodes stopped, data removed at the period's end, hidden from the list. */
  "/sys/prn/delete": { auth: "user", permission: "services", payload: projectRef, data: statusAnswer },
  /** What the gateway answers to one JSON-RPC call with the authorized user and this password (401 wrong password, 503 stopped). */
  "/sys/prn/tryIt": { auth: "user", permission: "services", payload: prnTrySchema, data: prnTryResultSchema },
} satisfies Record<string, PathSpec>;
