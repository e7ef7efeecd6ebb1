import { existsSync } from "node:fs";
import {
  AFTER_SECOND_HALF,
  BOTH_STAGES,
  CHAIN_NODE_SUITES,
  IPFS_NODE_SUITES,
  PGLITE_ONLY,
  POSTGRES_ONLY,
  stageExcludes,
} from "../../scripts/backend-stage-excludes.mjs";
import { embeddedOnly } from "../../scripts/embedded-only-tests.mjs";

/** The PostgreSQL stage skips the backend files that never reach PostgreSQL (docs/decisions/082). */
describe("the backend files the PostgreSQL stage skips", () => {
  const skipped = embeddedOnly();

  it("are the in-process files that keep their own PGlite", () => {
    // Opens its services in its own process and never names DATABASE_URL: the same run on both stages.
    expect(skipped).toContain("tests/backend/services.test.ts");
    expect(skipped).toContain("tests/backend/jobs.test.ts");
  });

  it("never include a file that talks to the suite's server or passes DATABASE_URL", () => {
    // Over HTTP to the suite's server (client.ts's `call`), which runs on PostgreSQL in that stage.
    expect(skipped).not.toContain("tests/backend/billing.test.ts");
    // In-process, but on the suite's PostgreSQL when DATABASE_URL is set.
    expect(skipped).not.toContain("tests/backend/payments.test.ts");
    expect(skipped).not.toContain("tests/backend/cluster.test.ts");
    // In-process, but through a helper (fabric-support.ts) that takes a database URL: kept when unsure.
    expect(skipped).not.toContain("tests/backend/fabric-test-job.test.ts");
    // Imports client.ts's `activeUser`, which registers through the suite's server.
    expect(skipped).not.toContain("tests/backend/rate-limits.test.ts");
  });

  it("are a minority of the in-process files", () => {
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.length).toBeLessThan(40);
  });
});

/** What each stage skips (docs/decisions/083). */
describe("the backend files each stage skips", () => {
  it("on PGlite: the files that only call the suite's server over HTTP", () => {
    const skipped = stageExcludes("pglite");
    expect(skipped).toContain("tests/backend/billing.test.ts");
    expect(skipped).toContain("tests/backend/security-pages.test.ts");
    // Its server process of its own on the embedded default moved to security-embedded-ticket.test.ts (docs/decisions/097).
    expect(skipped).toContain("tests/backend/security-matrix.test.ts");
    // Opens services in its own process: both stages.
    expect(skipped).not.toContain("tests/backend/payments.test.ts");
    // Starts server processes: both stages.
    expect(skipped).not.toContain("tests/backend/cluster.test.ts");
    // Through a test module it imports (fabric-support.ts opens services in-process): both stages when unsure.
    expect(skipped).not.toContain("tests/backend/test-services.test.ts");
    // Kept in both on purpose (none now: the fuzzer ran in both until docs/decisions/101).
    for (const file of Object.keys(BOTH_STAGES)) expect(skipped).not.toContain(file);
  });

  it("on PGlite: the files that only make sense on PostgreSQL, which run in the PostgreSQL stage", () => {
    expect(Object.keys(POSTGRES_ONLY)).toContain("tests/backend/ipfs-shared.test.ts");
    for (const file of Object.keys(POSTGRES_ONLY)) {
      expect(existsSync(file), file).toBe(true);
      expect(stageExcludes("pglite")).toContain(file);
      expect(stageExcludes("postgres")).not.toContain(file);
    }
  });

  it("on PostgreSQL: the files whose servers are the embedded default whatever the stage's database", () => {
    expect(Object.keys(PGLITE_ONLY)).toContain("tests/backend/security-embedded-ticket.test.ts");
    for (const file of Object.keys(PGLITE_ONLY)) {
      expect(existsSync(file), file).toBe(true);
      expect(stageExcludes("postgres")).toContain(file);
      expect(stageExcludes("pglite")).not.toContain(file);
    }
  });

  it("no file is skipped by both stages but those the run after the second PGlite half takes", () => {
    const postgres = new Set(stageExcludes("postgres"));
    expect(stageExcludes("pglite").filter((f) => postgres.has(f))).toEqual(stageExcludes("after-second-half"));
  });

  it("the security fuzzer runs once, on PostgreSQL after the second PGlite half (docs/decisions/101)", () => {
    expect(stageExcludes("after-second-half")).toEqual(["tests/backend/security-fuzz.test.ts"]);
    expect(Object.keys(BOTH_STAGES)).not.toContain("tests/backend/security-fuzz.test.ts");
    for (const file of Object.keys(AFTER_SECOND_HALF)) {
      expect(existsSync(file), file).toBe(true);
      expect(stageExcludes("pglite")).toContain(file);
      expect(stageExcludes("postgres")).toContain(file);
      expect(CHAIN_NODE_SUITES).not.toContain(file);
    }
  });

  it("on PostgreSQL: the files that never reach it, and the chain suites (they run there on the chain nodes)", () => {
    expect(stageExcludes("postgres")).toEqual(
      [
        ...new Set([
          ...embeddedOnly(),
          ...Object.keys(PGLITE_ONLY),
          ...CHAIN_NODE_SUITES,
          ...Object.keys(AFTER_SECOND_HALF),
        ]),
      ].sort(),
    );
  });

  it("the chain suites run on the chain nodes and in the PGlite stage (the embedded engine), each once", () => {
    expect(stageExcludes("external-engines")).toEqual(expect.arrayContaining(CHAIN_NODE_SUITES));
    for (const file of CHAIN_NODE_SUITES) {
      expect(existsSync(file), file).toBe(true);
      expect(stageExcludes("pglite")).not.toContain(file);
    }
  });

  it("one run takes the chain suites and the IPFS suites, each once, on the external engines (docs/decisions/113)", () => {
    const files = stageExcludes("external-engines");
    expect(files).toEqual([...new Set([...CHAIN_NODE_SUITES, ...IPFS_NODE_SUITES])].sort());
    for (const file of IPFS_NODE_SUITES) expect(existsSync(file), file).toBe(true);
  });

  it("names files that exist", () => {
    for (const file of Object.keys(BOTH_STAGES)) expect(existsSync(file), file).toBe(true);
  });
});
