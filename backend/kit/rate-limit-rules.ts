import { isIP } from "node:net";

/**
 * The rate limits and locks of the backend (docs/decisions/021), their defaults, and the RATE_LIMITS and
 * RATE_LIMIT_EXEMPT settings that change them. Pure: the counting is in rate-limit.ts.
 *
 * A rule counts hits per key in a window that starts at the key's first hit and lasts `windowMs`:
 * - a rate rule (no `blockMs`) refuses a hit once there were more than `limit` in the window;
 * - a lock rule (`blockMs`) locks the key for `blockMs` when its hits reach `limit`, and each further hit
 *   while locked extends the lock to `blockMs` from that hit.
 * `scope` says what the key is: the client's address ("address": RATE_LIMIT_EXEMPT lifts it for listed
 * addresses) or an account or a mail address ("account"). `alwaysOn` rules stay on with RATE_LIMITS=off.
 */
export type LimitRule = {
  limit: number;
  windowMs: number;
  blockMs?: number;
  scope: "address" | "account";
  alwaysOn?: boolean;
};

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const DEFAULT_RULES = {
  /** Captchas served to one address. */
  "captcha.ip": { limit: 30, windowMs: MINUTE, scope: "address" },
  /** Login attempts from one address, whatever the account. */
  "login.ip": { limit: 10, windowMs: MINUTE, scope: "address" },
  /** Failed logins from one address on one account: the fifth locks that address out of that account. */
  "login.lock": { limit: 5, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE, scope: "account", alwaysOn: true },
  /** Failed logins on one account from all addresses: the tenth puts the account under attack (slower, one strike per address). */
  "login.account": { limit: 10, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE, scope: "account" },
  /** Accounts registered from one address. */
  "register.ip": { limit: 5, windowMs: HOUR, scope: "address" },
  /** Files uploaded without a session (a registration's licence, up to 8 MB each) from one address. */
  "upload.anon.ip": { limit: 20, windowMs: HOUR, scope: "address" },
  /** Requests for a password-reset code from one address. */
  "resetCode.ip": { limit: 10, windowMs: 15 * MINUTE, scope: "address" },
  /** SPEC §9 resend wait: one reset code per account per 60 seconds. */
  "resetCode.resend": { limit: 1, windowMs: MINUTE, scope: "account" },
  /** Reset codes checked (and passwords set with one) from one address. */
  "resetCheck.ip": { limit: 30, windowMs: 15 * MINUTE, scope: "address" },
  /** Support tickets (support and contact pages) and replies by private link from one address without a session. */
  "support.ip": { limit: 10, windowMs: HOUR, scope: "address" },
  /** Newsletter subscriptions asked for from one address. */
  "newsletter.ip": { limit: 10, windowMs: HOUR, scope: "address" },
  /**
   * Mails of one purpose to one mail address caused by one client address (docs/decisions/054): what a
   * stranger asks for never spends the budget of the owner asking from their own address.
   */
  "mail.address": { limit: 3, windowMs: 15 * MINUTE, scope: "account" },
  /** Mails of any kind caused by one address. */
  "mail.ip": { limit: 10, windowMs: HOUR, scope: "address" },
  /**
   * Refused credentials at one door that takes them (a project or service key, a gateway's Basic user) from one
   * address: the tenth in 15 minutes locks that address out of that credential for 15 minutes, before any check
   * runs (docs/decisions/062). Counted only on a refusal, so a client with a good credential writes nothing.
   */
  "door.lock": { limit: 10, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE, scope: "address", alwaysOn: true },
  /** Wrong QR-code passwords of one DDC from one address: the fifth locks that address out of that DDC for 15 minutes (docs/decisions/045). */
  "ddcPassword.lock": { limit: 5, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE, scope: "account", alwaysOn: true },
  /**
   * QR-code passwords tried from one address, on any DDC (docs/decisions/067): the lock above is per DDC, so a
   * guesser going from DDC to DDC meets this one; each try costs an scrypt run.
   */
  "ddcPassword.ip": { limit: 30, windowMs: 15 * MINUTE, scope: "address" },
  /** Feeds (news, release notes; RSS or Atom) built for one address (docs/decisions/067); a reader polls a few times an hour. */
  "feed.ip": { limit: 60, windowMs: MINUTE, scope: "address" },
} satisfies Record<string, LimitRule>;

export type LimitName = keyof typeof DEFAULT_RULES;
export type RateLimitConfig = {
  /** false with RATE_LIMITS=off: only the `alwaysOn` rules count. */
  enabled: boolean;
  rules: Record<LimitName, LimitRule>;
  /**
   * Request rates of doors outside /vueapi that RATE_LIMITS sets instead of the endpoint's declared
   * `ratePerMinute` ("door:<path>=limit/window", docs/decisions/067), by the endpoint's path; backend/index.ts
   * refuses a path that names no rated endpoint.
   */
  doors: ReadonlyMap<string, LimitRule>;
  /** Normalised addresses (addressKey) that the address-scoped rules leave alone. */
  exempt: ReadonlySet<string>;
};

const UNITS: Record<string, number> = { s: SECOND, m: MINUTE, h: HOUR };

function duration(text: string): number | null {
  const match = /^(\d{1,6})(s|m|h)$/.exec(text);
  if (!match) return null;
  const ms = Number(match[1]) * UNITS[match[2]];
  return ms > 0 ? ms : null;
}

/**
 * RATE_LIMITS: unset or "on" = the defaults; "off" = only the locks (refused in production by env.ts);
 * or overrides "name=limit/window[/block],…", e.g. "captcha.ip=60/1m,login.lock=5/15m/30m"; a door's request rate
 * is "door:<endpoint path>=limit/window", e.g. "door:/chain/rpc/=6000/1m".
 * RATE_LIMIT_EXEMPT: comma-separated addresses left alone by the address-scoped rules.
 * A wrong value throws, so the server does not start with limits it did not mean.
 */
export function readRateLimitConfig(raw: string | undefined, exemptRaw: string | undefined): RateLimitConfig {
  const rules: Record<LimitName, LimitRule> = { ...DEFAULT_RULES };
  const doors = new Map<string, LimitRule>();
  const value = (raw ?? "on").trim();
  const enabled = value !== "off";
  if (enabled && value !== "on" && value !== "") {
    for (const part of value
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean)) {
      const door = /^door:(\/[A-Za-z0-9/._-]*)=(\d{1,7})\/([0-9]+[smh])$/.exec(part);
      if (door) {
        const windowMs = duration(door[3]!);
        if (!windowMs || Number(door[2]) < 1)
          throw new Error(`RATE_LIMITS: "${part}" needs a limit of at least 1 and a window above 0`);
        doors.set(door[1]!, { limit: Number(door[2]), windowMs, scope: "address" });
        continue;
      }
      const match = /^([a-zA-Z.]+)=(\d{1,7})\/([0-9]+[smh])(?:\/([0-9]+[smh]))?$/.exec(part);
      if (!match) throw new Error(`RATE_LIMITS: "${part}" is not name=limit/window[/block] (e.g. captcha.ip=30/1m)`);
      const [, name, limit, window, block] = match;
      if (!Object.prototype.hasOwnProperty.call(DEFAULT_RULES, name)) {
        throw new Error(`RATE_LIMITS: unknown limit "${name}" (known: ${Object.keys(DEFAULT_RULES).join(", ")})`);
      }
      const base: LimitRule = DEFAULT_RULES[name as LimitName];
      const windowMs = duration(window);
      const blockMs = block === undefined ? base.blockMs : duration(block);
      if (!windowMs || blockMs === null || Number(limit) < 1)
        throw new Error(`RATE_LIMITS: "${part}" needs a limit of at least 1 and durations above 0`);
      if (block !== undefined && base.blockMs === undefined)
        throw new Error(`RATE_LIMITS: "${name}" is a rate, not a lock: it takes no block duration`);
      rules[name as LimitName] = { ...base, limit: Number(limit), windowMs, blockMs };
    }
  }
  const exempt = new Set<string>();
  for (const entry of (exemptRaw ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    if (!isIP(entry)) throw new Error(`RATE_LIMIT_EXEMPT: "${entry}" is not an IP address`);
    exempt.add(addressKey(entry));
  }
  return { enabled, rules, doors, exempt };
}

/** The eight 16-bit groups of an IPv6 address (with an embedded IPv4 tail and "::" expanded). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1].split(".").map(Number);
    text = `${text.slice(0, -v4[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const parse = (s: string | undefined) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  const middle = tail === undefined ? [] : new Array(8 - front.length - back.length).fill(0);
  return [...front, ...middle, ...back];
}

/**
 * The key of a client address for the address-scoped limits: an IPv4 address as it is (also when written as
 * IPv4-mapped IPv6), an IPv6 address by its /64 network (one household or host gets a whole /64, so single
 * IPv6 addresses would be free to rotate), anything else "unknown" (all unknown callers share one count).
 */
export function addressKey(address: string | null | undefined): string {
  if (!address) return "unknown";
  let text = address.trim().replace(/%.*$/, "");
  if (/^::ffff:/i.test(text) && isIP(text.slice(7)) === 4) text = text.slice(7);
  const kind = isIP(text);
  if (kind === 4) return text;
  if (kind !== 6) return "unknown";
  const groups = ipv6Groups(text.toLowerCase());
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
