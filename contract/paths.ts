import * as z from "zod";

import type { PathSpec } from "./path-spec";
import { accountPaths } from "./accounts";
import { inboxPaths } from "./inbox";
import { platformPaths } from "./platform";
import { billingFixturePaths, billingPaths } from "./billing";
import { paymentPaths } from "./payments";
import { invoicePaths } from "./invoices";
import { profilePaths } from "./profile";
import { serviceFixturePaths, servicePaths } from "./services";
import { serviceWizardPaths } from "./service-wizard";
import { storePaths } from "./store";
import { participationPaths } from "./participation";
import { operationFixturePaths, operationPaths } from "./operations";
import { operatorAuthFixturePaths, operatorAuthPaths } from "./operator-auth";
import { auditPaths } from "./audit";
import { publicChainPaths } from "./public-chain";
import { configurationPaths } from "./configuration";
import { pricePaths } from "./prices";
import { contractPaths } from "./contracts";
import { testServicePaths } from "./test-services";
import { ipfsFixturePaths, ipfsPaths } from "./ipfs";
import { didPaths } from "./did";
import { ddcPaths } from "./ddc";
import { communityPaths } from "./community";
import { idePaths } from "./ide";
import { supportPaths } from "./support";
import { docPaths } from "./docs";
import { marketPaths } from "./market";
import { crossChainFixturePaths, crossChainPaths } from "./cross-chain";
import { dedicatedNodePaths } from "./dedicated-nodes";

export type { PathSpec } from "./path-spec";

/**
 * The /vueapi paths (SPEC §7) with their payload and `data` schemas: written once, imported by the portal's
 * request layer and by the backend's router. Each domain keeps its paths in its own contract/<domain>.ts;
 * this module only merges them.
 */

export const paths = {
  ...accountPaths,
  ...platformPaths,
  ...inboxPaths,
  ...billingPaths,
  ...paymentPaths,
  ...invoicePaths,
  ...profilePaths,
  ...servicePaths,
  ...billingFixturePaths,
  ...serviceFixturePaths,
  ...serviceWizardPaths,
  ...storePaths,
  ...participationPaths,
  ...operationPaths,
  ...operationFixturePaths,
  ...operatorAuthPaths,
  ...operatorAuthFixturePaths,
  ...auditPaths,
  ...publicChainPaths,
  ...configurationPaths,
  ...pricePaths,
  ...contractPaths,
  ...testServicePaths,
  ...ipfsPaths,
  ...ipfsFixturePaths,
  ...didPaths,
  ...ddcPaths,
  ...communityPaths,
  ...idePaths,
  ...supportPaths,
  ...docPaths,
  ...marketPaths,
  ...crossChainPaths,
  ...crossChainFixturePaths,
  ...dedicatedNodePaths,
} satisfies Record<string, PathSpec>;

export type VueapiPath = keyof typeof paths;
export type PayloadOf<P extends VueapiPath> = z.input<(typeof paths)[P]["payload"]>;
export type DataOf<P extends VueapiPath> = z.output<(typeof paths)[P]["data"]>;

/** SPEC §7: paths that receive portalCode 1 on portal pages (inside `condition` when paged). */
export const PORTAL_CODE_PATHS: readonly string[] = ["/anon/platform/cityNodes"];
