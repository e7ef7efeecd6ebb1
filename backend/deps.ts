import type { Db } from "./db/client.ts";
import type { BackendEnv } from "./env.ts";
import type { Limits } from "./kit/rate-limit.ts";
import type { FileStore } from "./kit/storage.ts";
import type { SessionCache } from "./http/session-cache.ts";
import type { ConstantData } from "./kit/constant-data.ts";
import type { Mailer } from "./mail.ts";

/**
 * What every handler may use: the database, the environment, the mailer, the rate limits, the storage adapter
 * of files (backend/kit/storage.ts), a clock tests can move and the
 * token check's cache.
 */
export type Deps = {
  db: Db;
  env: BackendEnv;
  mailer: Mailer;
  limits: Limits;
  files: FileStore;
  now: () => Date;
  /**
   * The token check's cache (backend/http/session-cache.ts): every write that ends or changes a session
   * calls `sessions.forgetToken` / `forgetUser` once it has committed.
   */
  sessions: SessionCache;
  /** Platform data kept until its catalogue is written (backend/kit/constant-data.ts). */
  constants: ConstantData;
};
