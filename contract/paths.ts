import * as z from "zod";

import type { PathSpec } from "./path-spec.ts";
import { accountPaths } from "./accounts.ts";
import { inboxPaths } from "./inbox.ts";
import { platformPaths } from "./platform.ts";
import { billingFixturePaths, billingPaths } from "./billing.ts";
import { billInfoPaths } from "./bill-info.ts";
import { billBreakdownPaths } from "./bill-breakdown.ts";
import { listExportPaths } from "./list-exports.ts";
import { paymentPaths } from "./payments.ts";
import { invoicePaths } from "./invoices.ts";
import { profilePaths } from "./profile.ts";
import { serviceFixturePaths, servicePaths } from "./services.ts";
import { serviceWizardPaths } from "./service-wizard.ts";
import { storePaths } from "./store.ts";
import { participationPaths } from "./participation.ts";
import { operationFixturePaths, operationPaths } from "./operations.ts";
import { operatorAuthFixturePaths, operatorAuthPaths } from "./operator-auth.ts";
import { auditPaths } from "./audit.ts";
import { publicChainPaths } from "./public-chain.ts";
import { configurationPaths } from "./configuration.ts";
import { pricePaths } from "./prices.ts";
import { contractPaths } from "./contracts.ts";
import { testServicePaths } from "./test-services.ts";
import { ipfsFixturePaths, ipfsPaths } from "./ipfs.ts";
import { didPaths } from "./did.ts";
import { ddcPaths } from "./ddc.ts";
import { communityPaths } from "./community.ts";
import { idePaths } from "./ide.ts";
import { supportPaths } from "./support.ts";
import { docPaths } from "./docs.ts";
import { legalPaths } from "./legal.ts";
import { marketPaths } from "./market.ts";
import { crossChainFixturePaths, crossChainPaths } from "./cross-chain.ts";
import { dedicatedNodePaths } from "./dedicated-nodes.ts";
import { certificationPaths } from "./certification.ts";
import { teamPaths } from "./team.ts";
import { activityPaths } from "./activity.ts";
import { alertPaths } from "./alerts.ts";
import { alertWebhookFixturePaths, alertWebhookPaths } from "./alert-webhook.ts";
import { searchPaths } from "./search.ts";
import { chainNodePaths } from "./chain-nodes.ts";

export type { PathSpec } from "./path-spec.ts";

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
  ...billInfoPaths,
  ...billBreakdownPaths,
  ...listExportPaths,
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
  ...legalPaths,
  ...marketPaths,
  ...crossChainPaths,
  ...crossChainFixturePaths,
  ...dedicatedNodePaths,
  ...certificationPaths,
  ...teamPaths,
  ...activityPaths,
  ...alertPaths,
  ...alertWebhookPaths,
  ...alertWebhookFixturePaths,
  ...searchPaths,
  ...chainNodePaths,
} satisfies Record<string, PathSpec>;

export type VueapiPath = keyof typeof paths;
export type PayloadOf<P extends VueapiPath> = z.input<(typeof paths)[P]["payload"]>;
export type DataOf<P extends VueapiPath> = z.output<(typeof paths)[P]["data"]>;

/** SPEC §7: paths that receive portalCode 1 on portal pages (inside `condition` when paged). */
export const PORTAL_CODE_PATHS: readonly string[] = ["/anon/platform/cityNodes"];
