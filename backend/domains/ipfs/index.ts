import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { ipfsGateway } from "./gateway.ts";
import { ipfsCapacityPrices } from "./prices.ts";
import {
  createService,
  getIpfsPrice,
  getIpfsUnitPrice,
  listServices,
  selectCapacity,
  selectIpfsOrgFlowPrices,
  serviceDetail,
  serviceKey,
} from "./handlers/user.ts";
import { listFiles, serviceTraffic, unpinFile, usageByGateway } from "./handlers/user-files.ts";
import { setCapacityFixture } from "./fixtures.ts";
import { meterOf, stopMeter } from "./meter.ts";
import {
  createUpgrade,
  listUpgrades,
  opsUpgradeDecide,
  opsUpgradeList,
  opsUpgradeTake,
  upgradeDetail,
  upgradeOptions,
  upgradesWaiting,
} from "./upgrades.ts";
import { embeddedEngine, engineHealth, engineOf, namesBlob, startEngine, stopEngine } from "./node.ts";
import type { Deps } from "#backend/deps.ts";
import { readPinned, runningServicesOf, storeOnService } from "./files-api.ts";
import { ipfsJobs } from "./jobs.ts";
import { pinSweepJobs, schedulePinSweep } from "./pin-sweep.ts";

/**
 * IPFS storage (SPEC §1, §3 IPFS service, §4, §5, §7 /sys/ipfsBusiness, §9; contract/ipfs.ts;
 * docs/decisions/039): services with a capacity bought from the balance, upload and download keys, city node
 * gateways that meter every byte served, and the engine that keeps the files (embedded, kubo, or the cluster
 * owner's). The weekly IPFS traffic bills are made by billing's weekly job from `ipfs_traffic_daily`.
 */
export default defineDomain({
  name: "ipfs",
  handlers: handlersOf({
    "/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices": selectIpfsOrgFlowPrices,
    "/sys/ipfsBusiness/ipfsUpgrade/selectCapacity": selectCapacity,
    "/sys/ipfsBusiness/ipfs/getIpfsUnitPrice": getIpfsUnitPrice,
    "/sys/ipfsBusiness/ipfs/getIpfsPrice": getIpfsPrice,
    "/sys/ipfsBusiness/ipfs/create": createService,
    "/sys/ipfsBusiness/ipfs/list": listServices,
    "/sys/ipfsBusiness/ipfs/detail": serviceDetail,
    "/sys/ipfsBusiness/ipfs/key": serviceKey,
    "/sys/ipfsBusiness/ipfs/files": listFiles,
    "/sys/ipfsBusiness/ipfs/unpin": unpinFile,
    "/sys/ipfsBusiness/ipfs/traffic": serviceTraffic,
    "/sys/ipfsBusiness/ipfs/usageByGateway": usageByGateway,
    "/sys/ipfsBusiness/ipfsUpgrade/options": upgradeOptions,
    "/sys/ipfsBusiness/ipfsUpgrade/create": createUpgrade,
    "/sys/ipfsBusiness/ipfsUpgrade/list": listUpgrades,
    "/sys/ipfsBusiness/ipfsUpgrade/detail": upgradeDetail,
    "/sys/ops/ipfsUpgrades/list": opsUpgradeList,
    "/sys/ops/ipfsUpgrades/take": opsUpgradeTake,
    "/sys/ops/ipfsUpgrades/decide": opsUpgradeDecide,
  }),
  jobs: { ...ipfsJobs, ...pinSweepJobs },
  schedules: [schedulePinSweep],
  start: startEngine,
  async stop(deps) {
    // The meter first: what was served is written before the database closes.
    await stopMeter(deps);
    await stopEngine(deps);
  },
  health: engineHealth,
  // The embedded engine's blocks in the shared file store (docs/decisions/096) are named by ipfs_blocks.
  namesBlob,
  endpoints: [ipfsGateway],
  api: {
    /** The engine of this process (tests, bench). */
    engine: engineOf,
    /** Another embedded engine over the same state as this process's (tests: a restart, a takeover), not opened. */
    embeddedEngine,
    /** Writes the download meter's counts now (before reading the traffic, e.g. a bill run in a test). */
    flushTraffic: (deps: Deps) => meterOf(deps).flush(),
    /** The operations queue of capacity upgrades: pending and being processed. */
    upgradesWaiting,
    /** Files other domains keep on a user's service (docs/decisions/045): running services, add, read. */
    runningServicesOf,
    storeOnService,
    readPinned,
    /** The operators' price catalogue area of IPFS capacities (docs/decisions/073). */
    priceAreas: { ipfsCapacity: ipfsCapacityPrices },
  },
  fixtures: handlersOf({ "/test/ipfs/capacity": setCapacityFixture }),
});
