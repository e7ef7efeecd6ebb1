import type { SignedInContext } from "#backend/http/router.ts";
import { type ProjectRow } from "#backend/domains/dedicated-nodes/projects.ts";
import { type Configuration } from "#backend/domains/dedicated-nodes/rules.ts";

/** The handlers of dedicated nodes (contract/dedicated-nodes.ts; docs/decisions/047). Every project is looked up with its owner. */

export type Ctx = SignedInContext;

export const V = (key: string) => `dedicatedNodeRules:validation.${key}`;

export const configOf = (p: ProjectRow): Configuration => ({
  nodeCount: p.nodeCount,
  hostConfig: p.hostConfig,
  dataCapacityGb: p.dataCapacityGb,
});
