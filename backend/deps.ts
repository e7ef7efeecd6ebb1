import type { Db } from "./db/client";
import type { BackendEnv } from "./env";
import type { Limits } from "./kit/rate-limit";
import type { FileStore } from "./kit/storage";
import type { Mailer } from "./mail";

/**
 * What every handler may use: the database, the environment, the mailer, the rate limits, the storage adapter
 * of files (backend/kit/storage.ts) and a clock tests can move.
 */
export type Deps = {
  db: Db;
  env: BackendEnv;
  mailer: Mailer;
  limits: Limits;
  files: FileStore;
  now: () => Date;
};
