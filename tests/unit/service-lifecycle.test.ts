import { describe, expect, it } from "vitest";
import {
  BILL_STATES,
  CROSS_STATUSES,
  serviceActions,
  VER_STATES,
  type ServiceAction,
} from "#contract/service-status.ts";
import { LIFECYCLE, transition, type Actor, type LifecycleEvent } from "#backend/domains/services/machine.ts";

describe("SPEC §4 Action availability on a published service, over every combination", () => {
  const rows: {
    verState: number;
    billState: number;
    verUpable: boolean;
    crossStatus: number;
    freeYN: number;
    stuFreeAppYn: number;
    unpaidBill: boolean;
  }[] = [];
  for (const verState of VER_STATES)
    for (const billState of BILL_STATES)
      for (const verUpable of [false, true])
        for (const crossStatus of CROSS_STATUSES)
          for (const freeYN of [0, 1])
            for (const stuFreeAppYn of [0, 1])
              for (const unpaidBill of [false, true])
                rows.push({ verState, billState, verUpable, crossStatus, freeYN, stuFreeAppYn, unpaidBill });

  it(`covers ${VER_STATES.length * BILL_STATES.length * 2 * CROSS_STATUSES.length * 8} combinations`, () => {
    expect(rows).toHaveLength(14 * 7 * 2 * 5 * 8);
  });

  // Each action's rule as the spec words it, checked against every row.
  const spec: Record<ServiceAction, (r: (typeof rows)[number]) => boolean> = {
    details: () => true,
    // The publish bill of a service to be paid, or at 25 another unpaid bill of it (a renewal, docs/decisions/036).
    pay: (r) => (r.verState === 23 && [1, 5].includes(r.billState)) || (r.verState === 25 && r.unpaidBill),
    edit: (r) => [22, 26].includes(r.verState),
    basicEdit: (r) => [15, 25].includes(r.billState) && r.verState === 25,
    join: (r) => [15, 25].includes(r.billState) && r.verState === 25,
    upgrade: (r) => [15, 25].includes(r.billState) && r.verState === 25,
    invite: (r) => [15, 25].includes(r.billState) && r.verState === 25,
    unsubscribe: (r) => [15, 25].includes(r.billState) && r.verState === 25,
    serviceUpgrade: (r) =>
      [15, 25].includes(r.billState) && r.verState === 25 && r.verUpable && ![3, 4].includes(r.crossStatus),
    configUpgrade: (r) => [25, 40].includes(r.verState) && r.stuFreeAppYn !== 1,
    enable: (r) => [30, 40].includes(r.verState),
    deactivate: (r) => r.verState === 25,
  };

  for (const [action, allowed] of Object.entries(spec) as [ServiceAction, (typeof spec)[ServiceAction]][]) {
    it(`${action}`, () => {
      const wrong = rows.filter((r) => serviceActions(r).has(action) !== allowed(r));
      expect(wrong.slice(0, 3)).toEqual([]);
    });
  }

  it("examples read from the spec", () => {
    expect([...serviceActions({ verState: 25, billState: 15, verUpable: true, crossStatus: 1 })].sort()).toEqual([
      "basicEdit",
      "configUpgrade",
      "deactivate",
      "details",
      "invite",
      "join",
      "serviceUpgrade",
      "unsubscribe",
      "upgrade",
    ]);
    expect(serviceActions({ verState: 25, billState: 15, verUpable: true, crossStatus: 3 }).has("serviceUpgrade")).toBe(
      false,
    );
    expect(serviceActions({ verState: 25, billState: 1, verUpable: true, crossStatus: 0 }).has("invite")).toBe(false);
    expect([...serviceActions({ verState: 23, billState: 1, verUpable: false, crossStatus: 0 })].sort()).toEqual([
      "details",
      "pay",
    ]);
    expect([...serviceActions({ verState: 26, billState: 10, verUpable: false, crossStatus: 0 })].sort()).toEqual([
      "details",
      "edit",
    ]);
    expect(
      serviceActions({ verState: 25, billState: 15, verUpable: true, crossStatus: 0, unpaidBill: true }).has("pay"),
    ).toBe(true);
    expect(
      serviceActions({ verState: 30, billState: 15, verUpable: true, crossStatus: 0, unpaidBill: true }).has("pay"),
    ).toBe(false);
    expect(
      serviceActions({ verState: 40, billState: 15, verUpable: true, crossStatus: 0, freeYN: 1 }).has("configUpgrade"),
    ).toBe(true);
    // A paid service is resized too (docs/decisions/060); the student free plan is not.
    expect(
      serviceActions({ verState: 25, billState: 15, verUpable: true, crossStatus: 0, freeYN: 0 }).has("configUpgrade"),
    ).toBe(true);
    expect(
      serviceActions({ verState: 25, billState: 15, verUpable: true, crossStatus: 0, stuFreeAppYn: 1 }).has(
        "configUpgrade",
      ),
    ).toBe(false);
  });
});

describe("the service lifecycle state machine (docs/decisions/010)", () => {
  // Every allowed (from, event, actor) and where it leads; anything else is refused.
  const allowed: [number, LifecycleEvent, Actor, number][] = [
    [1, "submit", "publisher", 5],
    [11, "resubmit", "publisher", 5],
    [20, "resubmit", "publisher", 5],
    [22, "resubmit", "publisher", 5],
    [26, "resubmit", "publisher", 5],
    [5, "initialApprove", "operator", 10],
    [5, "initialReject", "operator", 20],
    [10, "testPass", "system", 15],
    [10, "testFail", "system", 11],
    [15, "finalApprove", "operator", 23],
    [15, "finalReject", "operator", 22],
    [23, "pay", "publisher", 24],
    [23, "expire", "system", 1],
    [24, "deploySuccess", "system", 25],
    [24, "deployFail", "system", 26],
    [25, "deactivate", "publisher", 30],
    [25, "lapse", "system", 40],
    [30, "lapse", "system", 40],
    [25, "suspend", "operator", 40],
    [30, "enable", "publisher", 25],
    [40, "enable", "operator", 25],
    [40, "requestEnable", "publisher", 40],
    [40, "declineEnable", "operator", 40],
    [25, "uninstall", "operator", 35],
    [30, "uninstall", "operator", 35],
    [40, "uninstall", "operator", 35],
  ];
  const events = [...new Set(LIFECYCLE.map((r) => r.event))];
  const actors: Actor[] = ["publisher", "operator", "system"];
  const approvedAt = new Date("2026-06-01T00:00:00Z");

  it("allows exactly the table and refuses everything else with its reason", () => {
    for (const from of VER_STATES)
      for (const event of events)
        for (const actor of actors) {
          const expected = allowed.find(([f, e, a]) => f === from && e === event && a === actor);
          const now =
            event === "expire"
              ? new Date(approvedAt.getTime() + 4 * 86_400_000)
              : new Date(approvedAt.getTime() + 86_400_000);
          // A decline needs a pending request; a request needs none (their guards are tested below).
          const result = transition(from, event, actor, {
            comments: "looks fine",
            approvedAt,
            now,
            enableRequested: event === "declineEnable",
          });
          if (expected) {
            expect(result, `${from} ${event} ${actor}`).toEqual({ ok: true, to: expected[3] });
          } else {
            const someoneMay = allowed.some(([f, e]) => f === from && e === event);
            expect(result, `${from} ${event} ${actor}`).toEqual({
              ok: false,
              messageKey: someoneMay ? "MSG_36002" : "MSG_36001",
            });
          }
        }
  });

  it("requires comments for rejections and suspensions", () => {
    for (const [from, event] of [
      [5, "initialReject"],
      [15, "finalReject"],
      [25, "suspend"],
      [40, "declineEnable"],
    ] as const) {
      expect(transition(from, event, "operator", { comments: "  ", enableRequested: true })).toEqual({
        ok: false,
        messageKey: "MSG_30014",
      });
    }
    // Enabling (either actor) needs none.
    expect(transition(40, "enable", "operator", {})).toEqual({ ok: true, to: 25 });
  });

  it("takes one request to lift a suspension at a time, and declines only a pending one (docs/decisions/015)", () => {
    expect(transition(40, "requestEnable", "publisher", { enableRequested: false })).toEqual({ ok: true, to: 40 });
    expect(transition(40, "requestEnable", "publisher", { enableRequested: true })).toEqual({
      ok: false,
      messageKey: "MSG_36004",
    });
    expect(
      transition(40, "declineEnable", "operator", { enableRequested: false, comments: "Still under investigation." }),
    ).toEqual({ ok: false, messageKey: "MSG_36005" });
    expect(
      transition(40, "declineEnable", "operator", { enableRequested: true, comments: "Still under investigation." }),
    ).toEqual({ ok: true, to: 40 });
    // The publisher's own Enable at 40 stays the operator's decision; at 30 it is immediate.
    expect(transition(40, "enable", "publisher", {})).toEqual({ ok: false, messageKey: "MSG_36002" });
    expect(transition(30, "enable", "publisher", {})).toEqual({ ok: true, to: 25 });
    expect(transition(30, "requestEnable", "publisher", {})).toEqual({ ok: false, messageKey: "MSG_36001" });
  });

  it("lets a free service skip payment", () => {
    expect(transition(15, "finalApprove", "operator", { free: true })).toEqual({ ok: true, to: 24 });
  });

  it("keeps a publish application payable for 3 days, then lets it expire", () => {
    const day = 86_400_000;
    expect(transition(23, "pay", "publisher", { approvedAt, now: new Date(approvedAt.getTime() + 3 * day) })).toEqual({
      ok: true,
      to: 24,
    });
    expect(
      transition(23, "pay", "publisher", { approvedAt, now: new Date(approvedAt.getTime() + 3 * day + 1) }),
    ).toEqual({ ok: false, messageKey: "MSG_30006" });
    expect(transition(23, "expire", "system", { approvedAt, now: new Date(approvedAt.getTime() + 2 * day) })).toEqual({
      ok: false,
      messageKey: "MSG_36003",
    });
  });
});
