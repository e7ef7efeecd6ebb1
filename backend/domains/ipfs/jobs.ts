import type { Deps } from "#backend/deps.ts";
import { schedule, type JobEntry } from "#backend/jobs/runner.ts";
import { engineOf } from "./node.ts";

/**
 * A file's unpin that the IPFS node did not take (not answering; docs/decisions/076): the file row is already
 * gone and its capacity freed, so the node's pin is taken away by this job, retried with the job runner's
 * backoff until the node answers. The remote engine unpins only when no file row names the CID any more, so a
 * retry that comes after the same content was uploaded again leaves that new file's pin alone.
 */
export const JOB_IPFS_UNPIN = "ipfs.unpin";

export async function scheduleUnpin(deps: Deps, fileId: number, cid: string): Promise<void> {
  await schedule(deps.db, JOB_IPFS_UNPIN, { cid }, { runAt: deps.now(), dedupeKey: `ipfs-unpin:${fileId}` });
}

export const ipfsJobs: Record<string, JobEntry> = {
  [JOB_IPFS_UNPIN]: async (payload, deps) => {
    try {
      await engineOf(deps).unpin(String(payload.cid));
    } catch (error) {
      // Already unpinned (by hand on the node, or an earlier attempt whose answer was lost): done.
      if ((error as Error)?.name !== "NotPinnedError") throw error;
    }
  },
};
