import { describe, expect, it } from "vitest";
import { eventsFrom, type Machine } from "#contract/state-machine.ts";
import { ddcMachine, ddcTransferMachine } from "#backend/domains/ddc/machine.ts";
import {
  commentsRequiredFor,
  paymentReviewMachine,
  paymentReviewState,
  remittanceMachine,
  withdrawalMachine,
} from "#backend/domains/payments/machine.ts";
import { upgradeReviewMachine } from "#backend/domains/services/upgrade-machine.ts";

/**
 * The money queues', configuration upgrade review and DDC machines, against transitions written out by hand (not derived from the tables under
 * test): `ok` rows give the state after the event, `refused` rows the §8 key.
 * MSG_30013 already reviewed, MSG_30014 comments required, MSG_10403 no permission, MSG_47205 DDC not minted,
 * MSG_10002 not found.
 */
type Row = [from: number, event: string, actor: string, comments: string | null, expected: number | string];

type AnyMachine = Machine<any, any, any, any>;

function check(machine: AnyMachine, rows: Row[]) {
  for (const [from, event, actor, comments, expected] of rows) {
    it(`${from} —${event} by ${actor}${comments === null ? "" : " with comments"}→ ${expected}`, () => {
      expect(machine.transition(from, event, actor, { comments })).toEqual(
        typeof expected === "number" ? { ok: true, to: expected } : { ok: false, messageKey: expected },
      );
    });
  }
}

describe("withdrawal review machine", () => {
  check(withdrawalMachine, [
    [1, "approve", "operator", null, 10],
    [1, "reject", "operator", "no account", 5],
    [1, "reject", "operator", null, "MSG_30014"],
    [1, "reject", "operator", "   ", "MSG_30014"],
    [1, "confirm", "operator", null, "MSG_30013"],
    [10, "confirm", "operator", null, 15],
    [10, "approve", "operator", null, "MSG_30013"],
    [10, "reject", "operator", "late", "MSG_30013"],
    [5, "approve", "operator", null, "MSG_30013"],
    [5, "confirm", "operator", null, "MSG_30013"],
    [15, "confirm", "operator", null, "MSG_30013"],
    [15, "reject", "operator", "x", "MSG_30013"],
    [1, "approve", "user", null, "MSG_10403"],
  ]);
  it("needs comments to reject only", () => {
    expect(commentsRequiredFor(withdrawalMachine, "reject", "operator")).toBe(true);
    expect(commentsRequiredFor(withdrawalMachine, "approve", "operator")).toBe(false);
    expect(commentsRequiredFor(withdrawalMachine, "confirm", "operator")).toBe(false);
  });
});

describe("offline remittance machine", () => {
  check(remittanceMachine, [
    [2, "confirm", "operator", null, 15],
    [2, "reject", "operator", "not received", 5],
    [2, "reject", "operator", null, "MSG_30014"],
    [15, "confirm", "operator", null, "MSG_30013"],
    [15, "reject", "operator", "x", "MSG_30013"],
    [5, "confirm", "operator", null, "MSG_30013"],
    [1, "confirm", "operator", null, "MSG_30013"],
    [10, "reject", "operator", "x", "MSG_30013"],
    [2, "confirm", "user", null, "MSG_10403"],
  ]);
  it("needs comments to reject only", () => {
    expect(commentsRequiredFor(remittanceMachine, "reject", "operator")).toBe(true);
    expect(commentsRequiredFor(remittanceMachine, "confirm", "operator")).toBe(false);
  });
});

describe("payment in review machine", () => {
  check(paymentReviewMachine, [
    [0, "credit", "operator", null, 1],
    [0, "reject", "operator", "wrong currency", 2],
    [0, "reject", "operator", null, "MSG_30014"],
    [1, "credit", "operator", null, "MSG_30013"],
    [1, "reject", "operator", "x", "MSG_30013"],
    [2, "credit", "operator", null, "MSG_30013"],
    [2, "reject", "operator", "x", "MSG_30013"],
    [0, "credit", "user", null, "MSG_10403"],
  ]);
  it("reads the review row's state from its decision", () => {
    expect(paymentReviewState(null)).toBe(0);
    expect(paymentReviewState("credit")).toBe(1);
    expect(paymentReviewState("reject")).toBe(2);
  });
  it("needs comments to reject only", () => {
    expect(commentsRequiredFor(paymentReviewMachine, "reject", "operator")).toBe(true);
    expect(commentsRequiredFor(paymentReviewMachine, "credit", "operator")).toBe(false);
  });
});

describe("DDC machine", () => {
  check(ddcMachine, [
    [1, "mined", "system", null, 2],
    [1, "fail", "system", null, 3],
    [1, "transfer", "user", null, "MSG_47205"],
    [2, "transfer", "user", null, 2],
    [2, "mined", "system", null, "MSG_47205"],
    [2, "fail", "system", null, "MSG_47205"],
    [3, "mined", "system", null, "MSG_47205"],
    [3, "fail", "system", null, "MSG_47205"],
    [3, "transfer", "user", null, "MSG_47205"],
    [1, "mined", "user", null, "MSG_10403"],
    [2, "transfer", "system", null, "MSG_10403"],
  ]);
});

describe("DDC transfer machine", () => {
  check(ddcTransferMachine, [
    [1, "mined", "system", null, 2],
    [1, "fail", "system", null, 3],
    [2, "mined", "system", null, "MSG_10002"],
    [2, "fail", "system", null, "MSG_10002"],
    [3, "mined", "system", null, "MSG_10002"],
    [3, "fail", "system", null, "MSG_10002"],
  ]);
});

describe("configuration upgrade review machine", () => {
  check(upgradeReviewMachine, [
    [1, "approve", "operator", null, 10],
    [1, "reject", "operator", "too large", 5],
    [1, "reject", "operator", null, "MSG_30014"],
    [1, "reject", "operator", "  ", "MSG_30014"],
    [10, "approve", "operator", null, "MSG_30013"],
    [10, "reject", "operator", "x", "MSG_30013"],
    [5, "approve", "operator", null, "MSG_30013"],
    [5, "reject", "operator", null, "MSG_30013"],
    [1, "approve", "publisher", null, "MSG_10403"],
  ]);
});

describe("the decision choices of a money queue's record", () => {
  it("are the events its state allows, in the queue's order", () => {
    expect(eventsFrom(withdrawalMachine, 1, "operator")).toEqual(["approve", "reject"]);
    expect(eventsFrom(withdrawalMachine, 10, "operator")).toEqual(["confirm"]);
    expect(eventsFrom(withdrawalMachine, 5, "operator")).toEqual([]);
    expect(eventsFrom(withdrawalMachine, 15, "operator")).toEqual([]);
    expect(eventsFrom(remittanceMachine, 2, "operator")).toEqual(["confirm", "reject"]);
    expect(eventsFrom(remittanceMachine, 15, "operator")).toEqual([]);
    expect(eventsFrom(remittanceMachine, 5, "operator")).toEqual([]);
    expect(eventsFrom(paymentReviewMachine, 0, "operator")).toEqual(["credit", "reject"]);
    expect(eventsFrom(paymentReviewMachine, 1, "operator")).toEqual([]);
    expect(eventsFrom(paymentReviewMachine, 2, "operator")).toEqual([]);
    expect(eventsFrom(upgradeReviewMachine, 1, "operator")).toEqual(["approve", "reject"]);
    expect(eventsFrom(withdrawalMachine, 1, "user")).toEqual([]);
  });
});
