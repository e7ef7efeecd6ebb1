/*
 * Blocked actions explained (issue 16, docs/decisions/027): the pure half of the pattern, safe in the
 * browser bundle. The server half is app/lib/unpaid-guard.server.ts, the UI app/components/BlockedAction.tsx.
 */

/**
 * The actions SPEC §5 "Blocking by bills" blocks that the console offers today, with the payType of
 * §7 h5isHasNoPayBillV2 that guards each (1 new service or configuration upgrade and every §5 action,
 * 2 dedicated node). A new guarded screen adds its action here, with its label in locales (console.json
 * `blocked.actions.<name>`), and calls `requireNoUnpaidBills(request, viewer, "<name>")`.
 */
export const BLOCKED_ACTIONS = {
  newService: { payType: 1 },
  editService: { payType: 1 },
  editServiceBasic: { payType: 1 },
  upgradeService: { payType: 1 },
  /** SPEC §7 payType 1: a configuration upgrade (docs/decisions/036). */
  configUpgrade: { payType: 1 },
  /** Buying a public-chain plan (SPEC §2 PermissionlessServices Index). */
  buyPlan: { payType: 1 },
  /** §5 "new products": creating an app-store product, and submitting it for approval (its publishing). */
  newProduct: { payType: 1 },
  submitProduct: { payType: 1 },
  /** §5 "new services": publishing a service from a listed product makes a new service. */
  publishProduct: { payType: 1 },
  /** §5 "new services" and "IPFS upload and download" (issue 13, docs/decisions/039). */
  newIpfsService: { payType: 1 },
  ipfsUpload: { payType: 1 },
  ipfsDownload: { payType: 1 },
  /** §5 "upgrading": a larger capacity for an IPFS service (docs/decisions/039). */
  ipfsUpgrade: { payType: 1 },
  /** payType 2: for the dedicated-node application when its screen lands (SPEC §6). */
  dedicatedNode: { payType: 2 },
} as const satisfies Record<string, { payType: 1 | 2 }>;

export type BlockedAction = keyof typeof BLOCKED_ACTIONS;

export function isBlockedAction(value: string | null | undefined): value is BlockedAction {
  return typeof value === "string" && Object.hasOwn(BLOCKED_ACTIONS, value);
}

/** Where a return target may lead: the signed-in console, nothing else. */
const CONSOLE = "/g/home/";
const BASE = "http://console.invalid";

/**
 * A return target (`returnTo`) as a same-site console path, or null: it must be a path (not a URL with a
 * scheme or host, not protocol-relative `//x` or `/\x`), without control characters or backslashes, and
 * stay under /g/home/ once resolved (so `/g/home/../../x` is refused). The answer is the normalised
 * path and query, without a fragment; it is never longer than 1,000 characters.
 */
export function safeReturnTo(raw: string | null | undefined): string | null {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 1000) return null;
  if (!raw.startsWith("/") || raw.startsWith("//")) return null;
  if (/[\\\u0000-\u001f\u007f]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE || !url.pathname.startsWith(CONSOLE)) return null;
  // Encoded slashes or dots could be decoded into another path by a later hop: refuse them.
  if (/%2f|%5c|%2e/i.test(url.pathname)) return null;
  return url.pathname + url.search;
}

/** The console home with the panel that explains a blocked action and offers "Pay and continue". */
export function blockedHomeHref(action: BlockedAction, returnTo: string): string {
  const target = safeReturnTo(returnTo);
  const params = new URLSearchParams({ blocked: action, ...(target ? { returnTo: target } : {}) });
  return `/g/home/index?${params}`;
}

/** What an entry shows before the click: how many bills block it and their sum (null: nothing blocks). */
export type Block = { count: number; totalCents: number } | null;
