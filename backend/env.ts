import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseFilesUrl } from "./kit/blobs/files-url.ts";
import { readChainNodesFile, type ChainNodeConfig } from "./kit/chain-nodes.ts";
import { readRateLimitConfig, type RateLimitConfig } from "./kit/rate-limit-rules.ts";
import {
  chosenPaymentProvider,
  defaultProviderMethods,
  parseProviderMethods,
  PAYMENT_PROVIDERS,
  sandboxMayRun,
  type PaymentProviderName,
  type ProviderMethod,
} from "#contract/payments-codes.ts";

/**
 * The backend's environment, validated at start: a bad value stops the server (ARCHITECTURE house habit 6).
 * Production is not a test bench (docs/decisions/020): test captchas and fixtures are refused there, and the
 * sandbox payment provider runs there only as the demo (DEMO=1, shown as test mode on every page).
 */
const schema = z
  .object({
    NODE_ENV: z.string().default("development"),
    PORT: z.coerce.number().int().default(3000),
    DATA_DIR: z.string().default("./data"),
    DATABASE_URL: z.string().url().optional(),
    /** An S3-compatible bucket for stored files' bytes (docs/decisions/053; the shape: backend/kit/blobs/s3.ts). */
    FILES_URL: z.string().optional(),
    SMTP_URL: z.string().url().optional(),
    MAIL_FROM: z.string().default("BSN Portal <no-reply@localhost>"),
    PUBLIC_URL: z.string().url().optional(),
    TEST_CAPTCHA: z.string().min(1).optional(),
    /** The demo: demo accounts seeded into any database, the sandbox provider in test mode. */
    DEMO: z.enum(["0", "1"]).optional(),
    /** The former name of DEMO, still read when DEMO is unset. */
    SEED_DEMO: z.enum(["0", "1"]).optional(),
    TEST_FIXTURES: z.enum(["0", "1"]).optional(),
    /** Tests only: alert webhooks may reach loopback addresses (docs/decisions/092); refused in production. */
    WEBHOOK_ALLOW_LOOPBACK: z.enum(["0", "1"]).optional(),
    JOBS_INTERVAL_MS: z.coerce.number().int().min(0).default(2000),
    /**
     * How long a claimed job holds without a heartbeat (backend/jobs/runner.ts): a dead process's jobs on another
     * host wait this long. At least three heartbeats (10 s each), so a late renewal does not free a running job.
     */
    JOBS_LEASE_MS: z.coerce.number().int().min(30_000).max(3_600_000).default(30_000),
    PAYMENT_WEBHOOK_SECRET: z.string().min(16).optional(),
    /** "on" (default), "off" (tests only) or overrides "name=limit/window[/block],…" (docs/decisions/021). */
    RATE_LIMITS: z.string().optional(),
    /** Comma-separated client addresses that the per-address limits leave alone. */
    RATE_LIMIT_EXEMPT: z.string().optional(),
    PAYMENT_PROVIDER: z.enum(PAYMENT_PROVIDERS).optional(),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(
        /^(sk|rk)_(live|test)_[A-Za-z0-9]+$/,
        "a Stripe secret key starts with sk_live_, sk_test_ or (restricted) rk_live_, rk_test_",
      )
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=_-]+$/, "a Stripe webhook signing secret starts with whsec_")
      .optional(),
    /** Another address for the Stripe API (stripe-mock, a test double); unset = api.stripe.com. */
    STRIPE_API_URL: z.string().url().optional(),
    /** The methods the provider's checkout offers, `card,wechat_pay,alipay` (docs/decisions/072); Stripe's default `card`. */
    STRIPE_PAYMENT_METHODS: z.string().optional(),
    /**
     * A JSON file naming the Ethereum JSON-RPC nodes that serve the chains instead of the embedded engine, which
     * chain each serves and its treasury key (backend/kit/chain-nodes.ts, docs/decisions/094).
     */
    CHAIN_NODES: z.string().min(1).optional(),
    /**
     * With DATABASE_URL: every how many blocks the holder of the embedded chains copies a chain's state into the file
     * store, from which another host starts before replaying the log's tail (docs/decisions/103); 0: never.
     */
    CHAIN_SNAPSHOT_BLOCKS: z.coerce.number().int().min(0).default(500),
    /** One Ethereum JSON-RPC node for every chain instead of the embedded engine (docs/decisions/025, 094). */
    CHAIN_RPC_URL: z.string().url().optional(),
    /** With CHAIN_RPC_URL: the private key of an account funded on that node, the treasury (0x + 64 hex). */
    CHAIN_TREASURY_KEY: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "a private key: 0x and 64 hex digits")
      .optional(),
    /**
     * A connected Fabric network's peer gateway, grpcs://host:port (e.g. grpcs://peer0.org1.internal:7051): Fabric
     * services use that network instead of the embedded peer, and Go and Java chaincode are accepted (docs/decisions/052,
     * 068). With it: FABRIC_PEER_TLS_CA and FABRIC_PEER_MSP_ID.
     */
    FABRIC_PEER_ENDPOINT: z
      .string()
      .trim()
      .regex(/^grpcs:\/\/[^/?#:]+:\d{1,5}\/?$/, "a gRPC over TLS address: grpcs://host:port")
      .optional(),
    /** The PEM file of the CA that signed that peer's TLS certificate (the client pins it). */
    FABRIC_PEER_TLS_CA: z.string().trim().min(1).optional(),
    /** The MSP id of that peer's organisation (the network's admin org, which installs the chaincode). */
    FABRIC_PEER_MSP_ID: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "an MSP id: letters, digits, . _ -")
      .optional(),
    /** The embedded Fabric peer's time limit for one chaincode invocation, in ms (docs/decisions/064). */
    FABRIC_CHAINCODE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    /** The embedded Fabric peers' Gateway gRPC port (docs/decisions/065); default PORT+1. */
    FABRIC_GATEWAY_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    /** How clients reach that port (the access kit's endpoint): grpcs://host:port; default PUBLIC_URL's host, that port. */
    FABRIC_GATEWAY_PUBLIC_URL: z
      .string()
      .url()
      .regex(/^grpcs:\/\/[^/?#]+\/?$/, "a gRPC over TLS address: grpcs://host:port")
      .optional(),
    /** A kubo node's RPC API (or an IPFS Cluster's IPFS proxy) instead of the embedded IPFS engine (docs/decisions/039). */
    IPFS_API_URL: z.string().url().optional(),
    /** Where the embedded database's SQL runs: its own worker thread (default) or the main thread (docs/decisions/031). */
    PGLITE_THREAD: z.enum(["worker", "main"]).default("worker"),
    /** Portal processes on one port (server/cluster.js); more than one needs DATABASE_URL (docs/decisions/031). */
    WORKERS: z.coerce.number().int().min(1).max(64).default(1),
    /**
     * Set by the cluster's primary for each worker, never by hand: "owner" (keeps DATA_DIR and contends for the
     * engines' leases) or "peer" (keeps nothing there and forwards to the engines' holders; docs/decisions/095).
     */
    BSN_CLUSTER_ROLE: z.enum(["owner", "peer"]).optional(),
    /**
     * With DATABASE_URL, where this process answers the embedded engines' calls forwarded by the other portal
     * processes when it holds an engine's lease (docs/decisions/095): host:port, port 0 for a free one.
     */
    ENGINE_LISTEN: z
      .string()
      .regex(/^[^\s:]+:\d{1,5}$/, "host:port, e.g. 0.0.0.0:7070 (port 0: a free one)")
      .default("127.0.0.1:0"),
    /** How the other portal processes reach ENGINE_LISTEN (http(s)://host:port); default http://ENGINE_LISTEN. */
    ENGINE_URL: z
      .string()
      .url()
      .regex(/^https?:\/\/[^/?#]+\/?$/, "an http:// or https:// address: http://10.0.0.5:7070")
      .optional(),
  })
  .superRefine((env, ctx) => {
    const production = env.NODE_ENV === "production";
    const demo = (env.DEMO ?? env.SEED_DEMO) === "1";
    const issue = (variable: string, message: string) => ctx.addIssue({ code: "custom", path: [variable], message });
    if (env.TEST_CAPTCHA && production) issue("TEST_CAPTCHA", "TEST_CAPTCHA must not be set when NODE_ENV=production");
    if (env.TEST_FIXTURES === "1" && production)
      issue("TEST_FIXTURES", "TEST_FIXTURES must not be set when NODE_ENV=production");
    if (env.WEBHOOK_ALLOW_LOOPBACK === "1" && production)
      issue("WEBHOOK_ALLOW_LOOPBACK", "WEBHOOK_ALLOW_LOOPBACK must not be set when NODE_ENV=production");
    const provider = chosenPaymentProvider({ nodeEnv: env.NODE_ENV, demo, paymentProvider: env.PAYMENT_PROVIDER });
    if (!provider) {
      issue(
        "PAYMENT_PROVIDER",
        "a production server needs a real payment provider: set PAYMENT_PROVIDER=stripe with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, " +
          "or DEMO=1 to run the demo (sandbox payments in test mode, demo accounts)",
      );
    } else if (provider === "sandbox" && !sandboxMayRun({ nodeEnv: env.NODE_ENV, demo })) {
      issue(
        "PAYMENT_PROVIDER",
        "the sandbox provider takes no real money and is refused when NODE_ENV=production: set PAYMENT_PROVIDER=stripe " +
          "(with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET), or DEMO=1 to run the demo in test mode",
      );
    }
    if (env.CHAIN_NODES) {
      if (env.CHAIN_RPC_URL)
        issue(
          "CHAIN_NODES",
          "set CHAIN_NODES or CHAIN_RPC_URL, not both (CHAIN_RPC_URL is one node serving every chain)",
        );
      const nodes = readChainNodesFile(env.CHAIN_NODES);
      if ("problem" in nodes) issue("CHAIN_NODES", nodes.problem);
    }
    if (env.CHAIN_RPC_URL && !env.CHAIN_TREASURY_KEY)
      issue(
        "CHAIN_TREASURY_KEY",
        "required with CHAIN_RPC_URL (the key of an account funded on that node, which pays the gas the portal assigns)",
      );
    if (env.FABRIC_PEER_ENDPOINT) {
      if (!env.FABRIC_PEER_MSP_ID)
        issue("FABRIC_PEER_MSP_ID", "required with FABRIC_PEER_ENDPOINT (the peer's MSP id)");
      const problem = tlsCaProblem(env.FABRIC_PEER_TLS_CA);
      if (problem) issue("FABRIC_PEER_TLS_CA", problem);
    } else if (env.FABRIC_PEER_TLS_CA || env.FABRIC_PEER_MSP_ID) {
      issue("FABRIC_PEER_ENDPOINT", "FABRIC_PEER_TLS_CA and FABRIC_PEER_MSP_ID are set: set the endpoint too");
    }
    if (env.WORKERS > 1 && !env.DATABASE_URL) {
      issue(
        "WORKERS",
        "WORKERS above 1 needs DATABASE_URL: the embedded database (PGlite) has one writer, one process. Set DATABASE_URL to a PostgreSQL server, or WORKERS=1",
      );
    }
    if (env.FILES_URL) {
      const parsed = parseFilesUrl(env.FILES_URL);
      if ("problem" in parsed) issue("FILES_URL", parsed.problem);
    }
    if (env.RATE_LIMITS?.trim() === "off" && production)
      issue("RATE_LIMITS", "RATE_LIMITS=off must not be set when NODE_ENV=production");
    if (env.STRIPE_PAYMENT_METHODS !== undefined) {
      const methods = parseProviderMethods(env.STRIPE_PAYMENT_METHODS);
      if (!methods.ok) issue("STRIPE_PAYMENT_METHODS", methods.error);
    }
    if (provider === "stripe") {
      if (!env.STRIPE_SECRET_KEY)
        issue("STRIPE_SECRET_KEY", "required when PAYMENT_PROVIDER=stripe (the API secret key of the Stripe account)");
      if (!env.STRIPE_WEBHOOK_SECRET) {
        issue(
          "STRIPE_WEBHOOK_SECRET",
          "required when PAYMENT_PROVIDER=stripe (the signing secret whsec_… of the webhook endpoint PUBLIC_URL/payments/stripe/webhook)",
        );
      }
      if (production && !env.PUBLIC_URL)
        issue(
          "PUBLIC_URL",
          "required when PAYMENT_PROVIDER=stripe in production (where Stripe sends the payer back, and the webhook's address)",
        );
      if (production && demo) {
        issue(
          "DEMO",
          "the demo (accounts with a published password, sandbox payments) cannot run with PAYMENT_PROVIDER=stripe when NODE_ENV=production",
        );
      }
    }
  });

/** Why FABRIC_PEER_TLS_CA cannot be the peer's TLS CA, or null: it must be a readable PEM certificate. */
function tlsCaProblem(file: string | undefined): string | null {
  if (!file) return "required with FABRIC_PEER_ENDPOINT (the PEM file of the peer's TLS CA)";
  try {
    new X509Certificate(readFileSync(file));
    return null;
  } catch (error) {
    return `${file} is not a readable PEM certificate (${(error as Error).message})`;
  }
}

/** The connected Fabric network (docs/decisions/068): the endpoint as given, its host:port, the TLS CA and MSP id. */
/** The chains' engine (validated above: a CHAIN_NODES file that reads and parses). */
function chainOf(env: z.infer<typeof schema>): BackendEnv["chain"] {
  if (env.CHAIN_NODES) return { kind: "nodes", nodes: readChainNodesFile(env.CHAIN_NODES) as ChainNodeConfig[] };
  if (env.CHAIN_RPC_URL)
    return { kind: "nodes", nodes: [{ url: env.CHAIN_RPC_URL, treasuryKey: env.CHAIN_TREASURY_KEY!, chains: ["*"] }] };
  return { kind: "embedded" };
}

function fabricNetworkOf(env: z.infer<typeof schema>): BackendEnv["fabricNetwork"] {
  if (!env.FABRIC_PEER_ENDPOINT) return null;
  const endpoint = env.FABRIC_PEER_ENDPOINT.replace(/\/+$/, "");
  return {
    endpoint,
    address: endpoint.replace(/^grpcs:\/\//, ""),
    tlsCaPem: readFileSync(env.FABRIC_PEER_TLS_CA!, "utf8"),
    mspId: env.FABRIC_PEER_MSP_ID!,
  };
}

/** FABRIC_GATEWAY_PORT (default PORT+1) and FABRIC_GATEWAY_PUBLIC_URL (default PUBLIC_URL's host on that port). */
function fabricGatewayOf(env: z.infer<typeof schema>): BackendEnv["fabricGateway"] {
  const port = env.FABRIC_GATEWAY_PORT ?? env.PORT + 1;
  const host = new URL(env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).hostname;
  const publicUrl = (env.FABRIC_GATEWAY_PUBLIC_URL ?? `grpcs://${host}:${port}`).replace(/\/+$/, "");
  return { port, publicUrl };
}

/** A refused configuration: the server entry prints its message, without a stack, and exits with 1. */
export class ConfigurationError extends Error {
  override name = "ConfigurationError";
}

export type StripeConfig = {
  secretKey: string;
  webhookSecret: string;
  /** Another address for the Stripe API (tests, stripe-mock); unset = the library's default. */
  apiUrl: string | undefined;
};

export type BackendEnv = {
  nodeEnv: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** FILES_URL: the bucket of stored files' bytes; unset: DATA_DIR/files, or PostgreSQL with DATABASE_URL. */
  filesUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  testCaptcha: string | undefined;
  /** DEMO=1 (docs/decisions/020): the demo accounts are seeded and the sandbox runs, in test mode. */
  demo: boolean;
  /** Demo accounts are seeded at start: only for the demo (DEMO=1), or by `npm run db:seed` on purpose. */
  seedDemo: boolean;
  /** Tests only: the /test/fixtures path may create records for the caller. */
  testFixtures: boolean;
  /** Tests only (WEBHOOK_ALLOW_LOOPBACK=1): alert webhooks may reach loopback addresses, shown as test mode. */
  webhookAllowLoopback: boolean;
  /** How often this process looks for due background jobs; 0 turns the loop off. */
  jobsIntervalMs: number;
  /** How long a claimed job holds without a heartbeat (JOBS_LEASE_MS). */
  jobsLeaseMs: number;
  /**
   * The secret shared with the sandbox provider that signs its callbacks; when unset it is generated once
   * into DATA_DIR (backend/domains/payments/secret.ts), and required with DATABASE_URL (docs/decisions/007).
   */
  paymentWebhookSecret: string | undefined;
  /** The card payment provider this server runs (docs/decisions/019). */
  paymentProvider: PaymentProviderName;
  /** Test mode: the sandbox takes the payments, no real money moves, and every page says so. */
  testMode: boolean;
  /** Stripe's keys, with PAYMENT_PROVIDER=stripe. */
  stripe: StripeConfig | null;
  /** The methods the provider's checkout takes (STRIPE_PAYMENT_METHODS; docs/decisions/072). */
  paymentMethods: ProviderMethod[];
  /** The rate limits and locks (backend/kit/rate-limit-rules.ts). */
  rateLimits: RateLimitConfig;
  /**
   * The chains' engine: embedded, or Ethereum JSON-RPC nodes each serving some chains with its treasury key
   * (CHAIN_NODES, or CHAIN_RPC_URL as one node serving every chain; docs/decisions/025, 094).
   */
  chain: { kind: "embedded" } | { kind: "nodes"; nodes: ChainNodeConfig[] };
  /** With DATABASE_URL: blocks between an embedded chain's snapshots (CHAIN_SNAPSHOT_BLOCKS; docs/decisions/103); 0: none. */
  chainSnapshotBlocks: number;
  /** A connected Fabric network's peer (FABRIC_PEER_ENDPOINT), or null: Go and Java chaincode need one (docs/decisions/052). */
  fabricPeerEndpoint: string | null;
  /**
   * The connected Fabric network (docs/decisions/068): its peer's grpcs:// endpoint (what participants are given),
   * host:port (what the client dials), the TLS CA it pins, and the peer organisation's MSP id; null: embedded.
   */
  fabricNetwork: { endpoint: string; address: string; tlsCaPem: string; mspId: string } | null;
  /** The embedded Fabric peer's time limit per chaincode invocation (FABRIC_CHAINCODE_TIMEOUT_MS, docs/decisions/064). */
  fabricChaincodeTimeoutMs: number;
  /**
   * The Fabric Gateway gRPC service of the embedded peers (docs/decisions/065): the port it listens on and the
   * grpcs://host:port clients are given (its host is in the TLS server certificate).
   */
  fabricGateway: { port: number; publicUrl: string };
  /** The IPFS engine: embedded under DATA_DIR/ipfs, or a kubo RPC API (docs/decisions/039). */
  ipfs: { kind: "embedded" } | { kind: "remote"; url: string };
  /** The embedded database's SQL in its own worker thread (PGLITE_THREAD=worker) or on the main thread. */
  pgliteThread: "worker" | "main";
  /**
   * In a cluster (WORKERS > 1; docs/decisions/031): this process is the "owner" (it holds DATA_DIR's lock and
   * contends for the engines' leases) or a "peer" (it forwards to their holders, docs/decisions/095). Null: alone.
   */
  cluster: { role: "owner" | "peer" } | null;
  /**
   * With DATABASE_URL: where this process listens for forwarded engine calls, and the address it publishes in an
   * engine's lease for the others (docs/decisions/095); null on the embedded database (one process).
   */
  engineLink: { host: string; port: number; url: string | null } | null;
};

export function readBackendEnv(source: Record<string, string | undefined> = process.env): BackendEnv {
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigurationError(
      `Invalid backend environment:\n${parsed.error.issues.map((i) => `  - ${i.path.join(".")}: ${i.message}`).join("\n")}`,
    );
  }
  const env = parsed.data;
  let rateLimits: RateLimitConfig;
  try {
    rateLimits = readRateLimitConfig(env.RATE_LIMITS, env.RATE_LIMIT_EXEMPT);
  } catch (error) {
    throw new ConfigurationError(`Invalid backend environment: ${(error as Error).message}`);
  }
  const demo = (env.DEMO ?? env.SEED_DEMO) === "1";
  // Validated above: a provider was chosen.
  const paymentProvider = chosenPaymentProvider({
    nodeEnv: env.NODE_ENV,
    demo,
    paymentProvider: env.PAYMENT_PROVIDER,
  })!;
  return {
    nodeEnv: env.NODE_ENV,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    filesUrl: env.FILES_URL || undefined,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    testCaptcha: env.TEST_CAPTCHA,
    demo,
    seedDemo: demo,
    jobsIntervalMs: env.JOBS_INTERVAL_MS,
    jobsLeaseMs: env.JOBS_LEASE_MS,
    testFixtures: env.TEST_FIXTURES === "1",
    webhookAllowLoopback: env.WEBHOOK_ALLOW_LOOPBACK === "1",
    paymentWebhookSecret: env.PAYMENT_WEBHOOK_SECRET,
    rateLimits,
    chain: chainOf(env),
    chainSnapshotBlocks: env.CHAIN_SNAPSHOT_BLOCKS,
    fabricPeerEndpoint: env.FABRIC_PEER_ENDPOINT ?? null,
    fabricNetwork: fabricNetworkOf(env),
    fabricChaincodeTimeoutMs: env.FABRIC_CHAINCODE_TIMEOUT_MS,
    fabricGateway: fabricGatewayOf(env),
    ipfs: env.IPFS_API_URL ? { kind: "remote", url: env.IPFS_API_URL } : { kind: "embedded" },
    pgliteThread: env.PGLITE_THREAD,
    cluster: env.BSN_CLUSTER_ROLE ? { role: env.BSN_CLUSTER_ROLE } : null,
    engineLink: env.DATABASE_URL ? engineLinkOf(env.ENGINE_LISTEN, env.ENGINE_URL) : null,
    paymentProvider,
    testMode: paymentProvider === "sandbox",
    stripe:
      paymentProvider === "stripe"
        ? { secretKey: env.STRIPE_SECRET_KEY!, webhookSecret: env.STRIPE_WEBHOOK_SECRET!, apiUrl: env.STRIPE_API_URL }
        : null,
    paymentMethods: providerMethodsOf(env.STRIPE_PAYMENT_METHODS, paymentProvider),
  };
}

/** ENGINE_LISTEN and ENGINE_URL as validated above. */
function engineLinkOf(listen: string, url: string | undefined): NonNullable<BackendEnv["engineLink"]> {
  const at = listen.lastIndexOf(":");
  return { host: listen.slice(0, at), port: Number(listen.slice(at + 1)), url: url ? url.replace(/\/+$/, "") : null };
}

/** STRIPE_PAYMENT_METHODS as validated above, else the provider's default (docs/decisions/072). */
function providerMethodsOf(text: string | undefined, provider: PaymentProviderName): ProviderMethod[] {
  const parsed = text === undefined ? null : parseProviderMethods(text);
  return parsed?.ok ? parsed.methods : defaultProviderMethods(provider);
}
