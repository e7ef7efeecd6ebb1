/**
 * The services domain's tables, as drizzle.config.ts and other domains read them: the services and their
 * versions, packages, roles, nodes, reviews, refunds and upgrades (service-tables.ts), and each service's own
 * chain (chain-tables.ts).
 */
export * from "./service-tables.ts";
export * from "./chain-tables.ts";
