import billing from "#backend/domains/billing/index.ts";
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import type { serviceFixtureSchema } from "#contract/services.ts";
import { eq } from "drizzle-orm";
import { appComments, appVersions } from "./tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { buildDraft } from "./build.ts";
import { runDeploy, runTest, scheduleDeploy, scheduleTest } from "./jobs.ts";
import { createPublishBill, payPublishBill } from "./payment.ts";
import { applyTransition } from "./machine.ts";

/**
 * /test/services (tests only, TEST_FIXTURES=1): a complete service version for the caller, submitted (5)
 * and moved on to the asked verState through the real lifecycle (transitions, jobs, bill, ledger), so the
 * tests do not need the publish wizard of the other issue. Operator steps are recorded with no actor.
 */
export async function createServiceFixture(
  input: z.output<typeof serviceFixtureSchema>,
  { deps, user }: SignedInContext,
) {
  if (!deps.env.testFixtures) throw new ApiError(Msg.NOT_FOUND);
  const owner = user;
  const name = input.name ?? `Fixture ${randomBytes(4).toString("hex")}`;
  const target = input.verState;
  const now = () => deps.now();
  const { app, version } = await deps.db.transaction(async (tx) => {
    const built = await buildDraft(tx, {
      userId: owner.id,
      name,
      free: input.free,
      costCents: input.costCents,
      badPackage: input.badPackage,
      tps: input.tps,
      capacityGb: input.capacityGb,
      nodeCount: input.nodeCount,
      framework: input.framework,
      now: now(),
      files: deps.files,
    });
    await applyTransition(tx, {
      verId: built.version.id,
      event: "submit",
      actor: "publisher",
      actorId: owner.id,
      now: now(),
      set: { submittedAt: now() },
    });
    for (const text of input.comments)
      await tx.insert(appComments).values({ appId: built.app.id, userId: owner.id, text, createdAt: now() });
    if (target >= 10) {
      await applyTransition(tx, {
        verId: built.version.id,
        event: "initialApprove",
        actor: "operator",
        actorId: null,
        now: now(),
      });
      await scheduleTest(tx, built.version.id, now());
    }
    return built;
  });
  const stateNow = async () =>
    (await deps.db.select({ s: appVersions.verState }).from(appVersions).where(eq(appVersions.id, version.id)))[0].s;
  const done = { appId: app.id, appVerId: version.id, name };
  if (target >= 15) {
    await runTest({ verId: version.id }, deps);
    // A deliberately bad package stops at 11 (test failed).
    if ((await stateNow()) !== 15) return done;
  }
  if (target >= 23) {
    await deps.db.transaction(async (tx) => {
      const result = await applyTransition(tx, {
        verId: version.id,
        event: "finalApprove",
        actor: "operator",
        actorId: null,
        now: now(),
      });
      if (result.to === 23) await createPublishBill(tx, version.id, now());
      else {
        await tx.update(appVersions).set({ approvedAt: now() }).where(eq(appVersions.id, version.id));
        await scheduleDeploy(tx, version.id, now());
      }
    });
  }
  if (target >= 24 && !input.free) {
    await deps.db.transaction(async (tx) => {
      if (input.costCents > 0)
        await billing.api.post(
          tx,
          { userId: owner.id, kind: "grant", amountCents: input.costCents, refType: "grant", refId: owner.id },
          now(),
        );
      await payPublishBill(tx, {
        userId: owner.id,
        verId: version.id,
        idempotencyKey: `fixture-${randomBytes(8).toString("hex")}`,
        now: now(),
      });
    });
  }
  if (target >= 25) {
    await runDeploy({ verId: version.id }, deps);
    if ((await stateNow()) !== 25) return done;
  }
  if (target >= 30) {
    await deps.db.transaction((tx) =>
      applyTransition(tx, {
        verId: version.id,
        event: "deactivate",
        actor: "publisher",
        actorId: owner.id,
        now: now(),
      }),
    );
  }
  return done;
}
