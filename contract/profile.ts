import type { PathSpec } from "./path-spec";

/** The /vueapi paths of this domain (merged into contract/paths.ts). */
export const profilePaths = {} satisfies Record<string, PathSpec>;
