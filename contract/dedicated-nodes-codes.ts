import { BillType } from "./billing-codes.ts";

/**
 * Codes of dedicated nodes (SPEC §2 PrivatedNodes*, §3 dedicated node project, §4 statuses, §5 "Dedicated
 * node", §9; docs/decisions/047), without Zod, so that browser code can use them without loading the schemas.
 * contract/dedicated-nodes.ts re-exports them.
 */

/** SPEC §4 Dedicated node service: 1 not deployed, 2 deploying, 3 running, 4 failed, 5 deleted, 6 unsubscribed. */
export const PrnStatus = { NOT_DEPLOYED: 1, DEPLOYING: 2, RUNNING: 3, FAILED: 4, DELETED: 5, UNSUBSCRIBED: 6 } as const;
export const PRN_STATUSES = [1, 2, 3, 4, 5, 6] as const;
export type PrnStatusValue = (typeof PRN_STATUSES)[number];

/** SPEC §4 node component types: 1 peer, 2 gateway, 3 orderer, 4 CA. */
export const PrnNodeType = { PEER: 1, GATEWAY: 2, ORDERER: 3, CA: 4 } as const;

/** SPEC §4 Dedicated node upgrade: 1 upgrading, 2 success, 3 failed. */
export const PrnUpgradeStatus = { UPGRADING: 1, SUCCESS: 2, FAILED: 3 } as const;

/** What an upgrade changes (`prnUpdateType`): 1 node count (peers), 2 host configuration, 3 data capacity. */
export const PrnUpdateType = { NODE_COUNT: 1, HOST_CONFIG: 2, DATA_CAPACITY: 3 } as const;
export const PRN_UPDATE_TYPES = [1, 2, 3] as const;
export type PrnUpdateTypeValue = (typeof PRN_UPDATE_TYPES)[number];

/** §4 Payment cycle, as elsewhere: 1 yearly, 2 monthly (contract/config-upgrade-codes.ts). */
export const PRN_CYCLES = [1, 2] as const;
export type PrnCycle = (typeof PRN_CYCLES)[number];
export const prnCycleDays = (cycle: number) => (cycle === 1 ? 365 : 30);

/**
 * The frameworks a dedicated network may use, each with its consensus algorithms. Only the EVM frameworks
 * really run here (FISCO BCOS and CITA, docs/decisions/038 and 047): the embedded orderer seals alone, the
 * consensus is recorded with the network.
 */
export const PRN_FRAMEWORKS = [
  { framework: "fisco", label: "FISCO BCOS", consensus: ["pbft", "raft", "rpbft"] },
  { framework: "cita", label: "CITA", consensus: ["cita-bft", "raft"] },
] as const;
export type PrnFramework = (typeof PRN_FRAMEWORKS)[number]["framework"];
export const PRN_FRAMEWORK_CODES = PRN_FRAMEWORKS.map((f) => f.framework) as unknown as readonly [
  PrnFramework,
  ...PrnFramework[],
];
export const consensusOf = (framework: string): readonly string[] =>
  PRN_FRAMEWORKS.find((f) => f.framework === framework)?.consensus ?? [];

/**
 * Host configurations of a node (`hostConfig`). The monthly price of a peer on each is the operators' (the
 * dedicated-nodes domain's prn_host_configs, docs/decisions/073).
 */
export const PRN_HOST_CONFIGS = [
  { code: "c2m4", cpu: 2, memoryGb: 4 },
  { code: "c4m8", cpu: 4, memoryGb: 8 },
  { code: "c8m16", cpu: 8, memoryGb: 16 },
] as const;
export type PrnHostConfig = (typeof PRN_HOST_CONFIGS)[number]["code"];
export const PRN_HOST_CONFIG_CODES = PRN_HOST_CONFIGS.map((h) => h.code) as unknown as readonly [
  PrnHostConfig,
  ...PrnHostConfig[],
];

/**
 * Data capacities of a node in GB (`dataCapacityGb`). Their prices per peer, and the monthly base price of a
 * network's orderer, gateway and CA, are the operators' (prn_data_capacities, prn_fees; docs/decisions/073).
 */
export const PRN_DATA_CAPACITY_GBS: readonly number[] = [20, 50, 100, 200];
/** A year costs ten months. */
export const PRN_YEAR_MONTHS = 10;

/** §5 node count: peers of a network. */
export const PRN_PEERS_MIN = 1;
export const PRN_PEERS_MAX = 7;

/** §5 project name: lowercase letters, 3-20. */
export const PRN_NAME_RE = /^[a-z]{3,20}$/;
/** The authorized user of the gateway (HTTP Basic): a letter, then letters, digits or _, 3-20. */
export const PRN_USER_RE = /^[A-Za-z][A-Za-z0-9_]{2,19}$/;
/** §5 password: 6-20 letters and digits. */
export const PRN_PASSWORD_RE = /^[A-Za-z0-9]{6,20}$/;

/** The engine's network of a project: `prn-<project name>`. */
export const prnNetworkName = (projectName: string) => `prn-${projectName}`;
/** Where a project's gateway answers on this site (the chain domain's endpoint). */
export const prnGatewayPath = (projectName: string) => `/chain/dedicated/${prnNetworkName(projectName)}`;

/** The JSON-RPC methods the portal's "try it" form offers (any method the gateway knows is accepted). */
export const PRN_TRY_METHODS = [
  "eth_blockNumber",
  "eth_chainId",
  "eth_getBalance",
  "eth_getBlockByNumber",
  "eth_gasPrice",
  "net_version",
] as const;

/** The bill category of dedicated nodes (SPEC §9). */
export const PRN_BILL_TYPE = BillType.DEDICATED_NODE;

/** The refusals of this domain (contract/messages.ts MSG_48001-48099). */
export const PrnRefusal = {
  NAME_TAKEN: "MSG_48001",
  CONSENSUS_INVALID: "MSG_48002",
  REGION_UNKNOWN: "MSG_48003",
  NOT_ALLOWED_IN_STATUS: "MSG_48004",
  UPGRADE_OPEN: "MSG_48005",
  UPGRADE_NO_CHANGE: "MSG_48006",
  CAPACITY_BELOW_USED: "MSG_48007",
  PEERS_DECREASE: "MSG_48008",
  PERIOD_ENDED: "MSG_48009",
  PASSWORD_MISMATCH: "MSG_48010",
  NETWORK_FAILED: "MSG_48011",
} as const;
