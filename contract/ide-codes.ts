/**
 * Codes of the online IDE (SPEC §1, §2 IDEServices and /ide/portal, §8 "IDE authorisation expired";
 * docs/decisions/044), without Zod, so that browser code can use them without loading the schemas.
 * contract/ide.ts re-exports them.
 */

/** How long an IDE authorisation lasts without activity: every IDE call renews it (docs/decisions/044). */
export const IDE_GRANT_MINUTES = 30;

/** A workspace's name and a file's path. */
export const IDE_NAME_MAX = 50;
export const IDE_PATH_MAX = 200;
/** One file's content, and a workspace's files (each and all together, as the compiler takes them). */
export const IDE_FILE_MAX = 200_000;
export const IDE_FILES_MAX = 100;
/** A function's arguments (as many as the contracts domain takes). */
export const IDE_ARGS_MAX = 20;
export const IDE_ARG_MAX = 2_000;

/** The Solidity samples a workspace may start from (their names and descriptions are in locales ide.json). */
export const IDE_SAMPLE_TEMPLATES = ["storage", "erc20", "events"] as const;
/** An empty workspace: one file with a pragma. */
export const IDE_EMPTY_TEMPLATE = "empty";

/** A file's path in a workspace: folders separated by "/", names of letters, digits, "_", "-" and ".". */
export const IDE_PATH_PATTERN = /^(?!.*\.\.)(?!\/)[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/;

/** A compiled contract is named `<file>:<contract>` in forms. */
export const compiledRef = (file: string, name: string) => `${file}:${name}`;
