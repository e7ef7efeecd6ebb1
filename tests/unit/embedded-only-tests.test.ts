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
