import type { Db } from "#backend/db/client.ts";
import { schedule, type JobHandler } from "#backend/jobs/runner.ts";

/**
 * Uploads nobody claimed (docs/decisions/023): a file is uploaded while its form is read and claimed by
 * the call the form then makes; when that call is refused, or never comes, the upload stays pending.
 * Once an hour, the pending uploads older than UPLOAD_TTL_MS are deleted through the storage adapter.
 */
export const SWEEP_UPLOADS = "files.sweepUploads";
export const UPLOAD_TTL_MS = 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

export function scheduleUploadSweep(db: Db, at: Date) {
  const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
  return schedule(
    db,
    SWEEP_UPLOADS,
    {},
    { runAt: hour, dedupeKey: `${SWEEP_UPLOADS}:${hour.toISOString().slice(0, 13)}` },
  );
}

const sweepUploads: JobHandler = async (_payload, services) => {
  const now = services.now();
  await services.files.sweep(services.db, new Date(now.getTime() - UPLOAD_TTL_MS));
  await scheduleUploadSweep(services.db, new Date(now.getTime() + HOUR_MS));
};

/**
 * Blobs no `files` row names (docs/decisions/053): a deleted or unclaimed file's bytes, a write that never
 * committed its row. Once an hour, half past, those written more than BLOB_GRACE_MS ago are removed from the
 * blob store (a younger one may belong to a row about to commit).
 */
export const SWEEP_BLOBS = "files.sweepBlobs";
export const BLOB_GRACE_MS = 60 * 60 * 1000;

export function scheduleBlobSweep(db: Db, at: Date) {
  const halfPast = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS / 2);
  return schedule(
    db,
    SWEEP_BLOBS,
    {},
    { runAt: halfPast, dedupeKey: `${SWEEP_BLOBS}:${halfPast.toISOString().slice(0, 13)}` },
  );
}

const sweepBlobs: JobHandler = async (_payload, services) => {
  const now = services.now();
  await services.files.sweepBlobs(new Date(now.getTime() - BLOB_GRACE_MS));
  await scheduleBlobSweep(services.db, new Date(now.getTime() + HOUR_MS));
};

export const platformJobs = { [SWEEP_UPLOADS]: sweepUploads, [SWEEP_BLOBS]: sweepBlobs };
