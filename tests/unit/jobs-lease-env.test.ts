import { describe, expect, it } from "vitest";
import { readBackendEnv } from "#backend/env.ts";

// JOBS_LEASE_MS (backend/jobs/runner.ts): how long a claimed job holds without a heartbeat.
const base = { NODE_ENV: "test", DATA_DIR: "/tmp/bsn-jobs-lease-env" };

describe("JOBS_LEASE_MS", () => {
  it("defaults to 30 s and takes an operator's longer lease", () => {
    expect(readBackendEnv(base).jobsLeaseMs).toBe(30_000);
    expect(readBackendEnv({ ...base, JOBS_LEASE_MS: "600000" }).jobsLeaseMs).toBe(600_000);
  });

  it("refuses a lease under three heartbeats or over an hour, naming the variable", () => {
    for (const value of ["29999", "3600001", "soon"])
      expect(() => readBackendEnv({ ...base, JOBS_LEASE_MS: value }), value).toThrow(/JOBS_LEASE_MS/);
  });
});
