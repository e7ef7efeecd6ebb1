import type { Db } from "#backend/db/client.ts";
import type { DemoTimeline } from "./demo-timeline.ts";
import type { Deps } from "#backend/deps.ts";
import type { BackendEnv } from "#backend/env.ts";
import type { DownloadHandlers, Handlers } from "#backend/http/router.ts";
import type { JobEntry } from "#backend/jobs/runner.ts";
import type { UploadKind } from "#contract/uploads.ts";
import type { UploadRule } from "./uploads.ts";

/**
 * One domain of the backend (docs/decisions/018): a folder under backend/domains/<name>/ whose index.ts
 * default-exports `defineDomain({...})`. backend/index.ts lists the domains once; everything below is
 * merged from that list. A domain imports another only through that domain's `api` (or its `tables.ts`
 * for Drizzle foreign keys and read joins), never its other files: the lint rule in eslint.config.js
 * enforces it.
 */
export type Domain = {
  /** The folder's name. */
  readonly name: string;
  /** Its /vueapi paths (contract/<name>.ts), typed by path with `handlersOf`. */
  readonly handlers?: Partial<Handlers>;
  /**
   * Its background job kinds (backend/jobs/runner.ts): each a handler, or `{ run, ownerOf }` when its jobs
   * concern one user's resource, so that user is told when such a job dies (docs/decisions/005).
   */
  readonly jobs?: Record<string, JobEntry>;
  /** Recurring jobs: each is called at every start and schedules its next run (idempotent, by dedupe key). */
  readonly schedules?: readonly Schedule[];
  /** What runs at start, before any request: configuration checks, environment handed to the domain. */
  readonly start?: (deps: Deps) => void | Promise<void>;
  /** What runs when the service closes (worker threads ended, stores closed). */
  readonly stop?: (deps: Deps) => Promise<void>;
  /** What it adds to /healthz (e.g. each chain's height), under its name. */
  readonly health?: (deps: Deps) => Promise<Record<string, unknown>>;
  /** HTTP endpoints outside the /vueapi envelope that the domain serves (webhooks, hosted pages, later JSON-RPC). */
  readonly endpoints?: readonly Endpoint[];
  /**
   * The upload kinds it owns (contract/uploads.ts gives their byte limits): files streamed to
   * `POST /vueapi/upload/<kind>`, checked by the rule while they arrive, then claimed by its handlers
   * through `deps.files` (docs/decisions/023).
   */
  readonly uploads?: Partial<Record<UploadKind, UploadRule>>;
  /**
   * The download kinds it answers (contract/downloads.ts), typed by kind with `downloadHandlersOf`: each
   * names the file `POST /vueapi/download/<kind>` then answers as bytes (docs/decisions/053).
   */
  readonly downloads?: Partial<DownloadHandlers>;
  /**
   * Whether a blob of the file store is named by one of its tables (docs/decisions/096: the IPFS engine's blocks):
   * the blob sweep removes only the blobs no `files` row and no domain names.
   */
  readonly namesBlob?: (db: Db, address: string) => Promise<boolean>;
  /** The functions other domains may call. */
  readonly api?: Readonly<Record<string, unknown>>;
  /** Demo records for the demo accounts created just now (only when demo data is asked for). */
  readonly seedDemo?: DemoSeeder;
  /** Tests only (TEST_FIXTURES=1): /test/* paths that create this domain's records for the caller. */
  readonly fixtures?: Partial<Handlers>;
  /** Tests only (TEST_FIXTURES=1): job kinds registered only then (e.g. a job that takes long or fails on demand). */
  readonly fixtureJobs?: Record<string, JobEntry>;
};

/** A recurring job: schedules its next run; called at every start. */
export type Schedule = (db: Db, now: Date) => Promise<unknown>;

/**
 * Demo records of one domain for demo accounts created just now: `users` maps a demo username to its
 * new id. A seeder only inserts (the accounts are new, so nothing of theirs exists yet). Whatever moves
 * money goes through `timeline`, so every demo ledger entry is posted in time order (kit/demo-timeline.ts).
 */
export type DemoSeeder = (
  deps: Deps,
  users: Record<string, number>,
  now: Date,
  timeline: DemoTimeline,
) => Promise<void>;

/**
 * An HTTP endpoint a domain serves outside the /vueapi JSON envelope. The door route
 * (app/routes/$door.ts... see backend/index.ts handleEndpoint) hands it every request whose path starts
 * with `path`; the security suites read this list so that every endpoint is covered by construction.
 */
export type Endpoint = EndpointRate & {
  /** The methods it answers; another method is a 405. */
  readonly methods: readonly ("GET" | "POST" | "HEAD")[];
  /** A path prefix under the site's root, e.g. "/sandbox-pay/". */
  readonly path: string;
  /** Who may call it: anyone, the holder of a signature (provider webhooks), a project key, a session. */
  readonly auth: "public" | "signature" | "key" | "session";
  /**
   * The largest request body it reads: a larger Content-Length is refused with 413 before the body is
   * read, and the body is counted while it streams (a handler reading past the limit gets a 413 too).
   */
  readonly bodyLimitBytes: number;
  /**
   * Whether its answers are JSON-RPC (the chain doors): a refusal of the door itself (a request rate, a
   * credential lock) is then a JSON-RPC error, else a JSON body with a message key.
   */
  readonly jsonRpc?: boolean;
  /**
   * Whether this server serves it, from its configuration (e.g. the sandbox checkout only while the sandbox
   * is the provider): an endpoint it does not serve is not found. Absent = always.
   */
  readonly enabled?: (env: BackendEnv) => boolean;
  /**
   * Whether the handler gets the body as a stream (counted against `bodyLimitBytes` while it arrives, the
   * reader erroring with BodyTooLargeError past it) rather than read into memory first: large uploads (IPFS).
   */
  readonly streamBody?: boolean;
  /** What it does; the request's body is limited to `bodyLimitBytes` (backend/kit/body-limit.ts). */
  readonly handle: (request: Request, deps: Deps) => Promise<Response>;
};

/**
 * Every endpoint declares its request rate per client address (docs/decisions/067), enforced by
 * backend/index.ts `serveEndpoint` before anything else (429 with Retry-After), or says why it has none.
 */
type EndpointRate =
  | {
      /** Requests per minute per client address (RATE_LIMITS "door:<path>=…" may set another). */
      readonly ratePerMinute: number;
      readonly unratedBecause?: never;
    }
  | {
      readonly ratePerMinute: null;
      /** Why no rate applies (e.g. a provider's webhook that its signature guards). */
      readonly unratedBecause: string;
    };

/** Declares a domain; keeps the literal types of its `api` for the domains that call it. */
export function defineDomain<const D extends Domain>(domain: D): D {
  return domain;
}
