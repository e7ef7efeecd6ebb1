import { describe, expect, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { productMachine } from "#contract/store-codes.ts";
import type { Machine } from "#contract/state-machine.ts";
import { invoiceMachine } from "#backend/domains/invoices/machine.ts";
import { joinMachine } from "#backend/domains/participation/machine.ts";
import { lifecycle, refundMachine } from "#backend/domains/services/machine.ts";
import { projectMachine } from "#backend/domains/public-chain/machine.ts";
import { testServiceMachine } from "#backend/domains/test-services/machine.ts";
import { ipfsUpgradeMachine } from "#backend/domains/ipfs/machine.ts";
import { ticketMachine } from "#backend/domains/support/machine.ts";
import { crossChainMachine } from "#backend/domains/cross-chain/machine.ts";
import { prnProjectMachine, prnUpgradeMachine } from "#backend/domains/dedicated-nodes/machine.ts";

/**
 * Every machine against its transitions written out by hand (the readings of SPEC §4 in the ADRs each machine
 * file names), not derived from the machine's own rules: a wrong rule, a missing one or one too many fails here.
 *
 * For each machine: its states, events and actors; `allows`, every transition that happens (from, event, actor,
 * to) in a context where every guard passes; `refuses`, the transitions refused with a message of their own.
 * Every other state × event × actor is refused: "not available" when no actor may take the event from that state,
 * "not allowed" when another actor may. `comments`: the (event, actor) pairs that need comments (every other
 * allowed transition goes through with blank comments). `guards`: per guarded event, a context that fails the
 * guard and the refusal it gives, from every state the event is allowed from. `cases`: outcomes that depend on
 * the context (a free service skips payment, a disabled participant takes no step).
 */
type Row = readonly [from: number, event: string, actor: string, to: number];
type Refused = readonly [from: number, event: string, actor: string, messageKey: string];
type Expected = {
  machine: Machine<any, any, any, any>;
  states: number[];
  events: string[];
  actors: string[];
  notAvailable: string;
  notAllowed: string;
  commentsRequired: string;
  allows: Row[];
  refuses?: Refused[];
  comments?: [event: string, actor: string][];
  /** A context in which every guard of the event passes (and comments are given). */
  pass: (event: string) => Record<string, unknown>;
  guards?: Record<string, { ctx: Record<string, unknown>; messageKey: string }>;
  cases?: { from: number; event: string; actor: string; ctx: Record<string, unknown>; outcome: unknown }[];
};

const now = new Date("2026-11-23T00:00:00Z");
const fourDaysAgo = new Date(now.getTime() - 4 * 86_400_000);

const expected: Expected[] = [
  {
    // docs/decisions/010, 015, 036
    machine: lifecycle,
    states: [1, 5, 10, 11, 15, 20, 22, 23, 24, 25, 26, 30, 35, 40],
    events: [
      "submit",
      "resubmit",
      "initialApprove",
      "initialReject",
      "testPass",
      "testFail",
      "finalApprove",
      "finalReject",
      "pay",
      "expire",
      "deploySuccess",
      "deployFail",
      "deactivate",
      "suspend",
      "enable",
      "requestEnable",
      "declineEnable",
      "uninstall",
      "lapse",
    ],
    actors: ["publisher", "operator", "system"],
    notAvailable: Msg.SERVICE_ACTION_NOT_AVAILABLE,
    notAllowed: Msg.SERVICE_ACTION_NOT_ALLOWED,
    commentsRequired: Msg.COMMENTS_REQUIRED,
    allows: [
      [1, "submit", "publisher", 5],
      [5, "initialApprove", "operator", 10],
      [5, "initialReject", "operator", 20],
      [10, "testPass", "system", 15],
      [10, "testFail", "system", 11],
      [11, "resubmit", "publisher", 5],
      [15, "finalApprove", "operator", 23],
      [15, "finalReject", "operator", 22],
      [20, "resubmit", "publisher", 5],
      [22, "resubmit", "publisher", 5],
      [23, "pay", "publisher", 24],
      [23, "expire", "system", 1],
      [24, "deploySuccess", "system", 25],
      [24, "deployFail", "system", 26],
      [25, "deactivate", "publisher", 30],
      [25, "suspend", "operator", 40],
      [25, "uninstall", "operator", 35],
      [25, "lapse", "system", 40],
      [26, "resubmit", "publisher", 5],
      [30, "enable", "publisher", 25],
      [30, "uninstall", "operator", 35],
      [30, "lapse", "system", 40],
      [40, "enable", "operator", 25],
      [40, "requestEnable", "publisher", 40],
      [40, "declineEnable", "operator", 40],
      [40, "uninstall", "operator", 35],
    ],
    comments: [
      ["initialReject", "operator"],
      ["finalReject", "operator"],
      ["suspend", "operator"],
      ["declineEnable", "operator"],
    ],
    pass: (event) => ({
      comments: "ok",
      now,
      approvedAt: event === "expire" ? fourDaysAgo : now,
      enableRequested: event === "declineEnable",
    }),
    guards: {
      pay: { ctx: { now, approvedAt: fourDaysAgo }, messageKey: Msg.PUBLISH_PAYMENT_EXPIRED },
      expire: { ctx: { now, approvedAt: now }, messageKey: Msg.PUBLISH_PAYMENT_NOT_EXPIRED },
      requestEnable: { ctx: { enableRequested: true }, messageKey: Msg.ENABLE_ALREADY_REQUESTED },
      declineEnable: { ctx: { comments: "ok", enableRequested: false }, messageKey: Msg.NO_ENABLE_REQUEST },
    },
    cases: [
      // A free service skips payment (§1 one free service per account).
      { from: 15, event: "finalApprove", actor: "operator", ctx: { free: true }, outcome: { ok: true, to: 24 } },
    ],
  },
  {
    machine: refundMachine,
    states: [1, 5, 10, 15],
    events: ["approve", "reject"],
    actors: ["operator"],
    notAvailable: Msg.ALREADY_REVIEWED,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.COMMENTS_REQUIRED,
    allows: [
      [1, "approve", "operator", 10],
      [1, "reject", "operator", 5],
    ],
    comments: [["reject", "operator"]],
    pass: () => ({ comments: "ok" }),
  },
  {
    // docs/decisions/013
    machine: joinMachine,
    states: [0, 1, 2, 3, 4, 5, 10, 13, 15],
    events: [
      "publisherApprove",
      "publisherReject",
      "operatorApprove",
      "operatorReject",
      "order",
      "skipOrder",
      "reorder",
      "pay",
      "workOrderDone",
      "confirm",
    ],
    actors: ["publisher", "operator", "participant", "system"],
    notAvailable: Msg.JOIN_STEP_NOT_AVAILABLE,
    notAllowed: Msg.JOIN_STEP_NOT_ALLOWED,
    commentsRequired: Msg.COMMENTS_REQUIRED,
    allows: [
      [0, "publisherApprove", "publisher", 1],
      [0, "publisherReject", "publisher", 2],
      [1, "operatorApprove", "operator", 3],
      [1, "operatorReject", "operator", 4],
      [3, "order", "system", 5],
      [3, "skipOrder", "system", 10],
      [5, "reorder", "participant", 5],
      [5, "pay", "participant", 10],
      [10, "workOrderDone", "system", 13],
      [13, "confirm", "participant", 15],
    ],
    comments: [
      ["publisherReject", "publisher"],
      ["operatorReject", "operator"],
    ],
    pass: (event) => ({
      comments: "ok",
      orderCents: event === "order" || event === "reorder" ? 100 : 0,
      orderExpired: event === "reorder",
    }),
    guards: {
      order: { ctx: { orderCents: 0 }, messageKey: Msg.JOIN_STEP_NOT_AVAILABLE },
      skipOrder: { ctx: { orderCents: 100 }, messageKey: Msg.JOIN_STEP_NOT_AVAILABLE },
      reorder: { ctx: { orderCents: 100, orderExpired: false }, messageKey: Msg.JOIN_STEP_NOT_AVAILABLE },
    },
    cases: [
      // A disabled participant takes no further step.
      {
        from: 13,
        event: "confirm",
        actor: "participant",
        ctx: { disabled: true },
        outcome: { ok: false, messageKey: Msg.JOIN_STEP_NOT_AVAILABLE },
      },
      {
        from: 0,
        event: "publisherApprove",
        actor: "publisher",
        ctx: { disabled: true },
        outcome: { ok: false, messageKey: Msg.JOIN_STEP_NOT_AVAILABLE },
      },
    ],
  },
  {
    // docs/decisions/008
    machine: invoiceMachine,
    states: [1, 3, 5, 10],
    events: ["approve", "reject", "deliver"],
    actors: ["operator"],
    notAvailable: Msg.ALREADY_REVIEWED,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.COMMENTS_REQUIRED,
    allows: [
      [1, "approve", "operator", 5],
      [1, "reject", "operator", 3],
      [5, "deliver", "operator", 10],
    ],
    refuses: [[1, "deliver", "operator", Msg.INVOICE_NOT_APPROVED]],
    pass: () => ({ comments: "ok" }),
  },
  {
    machine: productMachine,
    states: [0, 1, 2, 3, 4],
    events: ["edit", "submit", "approve", "reject", "remove"],
    actors: ["owner", "operator"],
    notAvailable: Msg.PRODUCT_ACTION_NOT_ALLOWED,
    notAllowed: Msg.PRODUCT_ACTION_NOT_ALLOWED,
    commentsRequired: Msg.COMMENTS_REQUIRED,
    allows: [
      [0, "edit", "owner", 0],
      [0, "submit", "owner", 1],
      [1, "approve", "operator", 2],
      [1, "reject", "operator", 3],
      [2, "remove", "owner", 4],
      [3, "edit", "owner", 3],
      [3, "submit", "owner", 1],
    ],
    pass: () => ({ comments: "ok" }),
  },
  {
    machine: projectMachine,
    states: [1, 5, 10, 11, 15, 16, 20],
    events: ["deployStart", "deployOk", "deployFail", "redeploy", "publish", "enable", "deactivate"],
    actors: ["user", "system"],
    notAvailable: Msg.PROJECT_ACTION_NOT_AVAILABLE,
    notAllowed: Msg.PROJECT_ACTION_NOT_AVAILABLE,
    commentsRequired: Msg.COMMENTS_REQUIRED,
    allows: [
      [1, "deployStart", "system", 10],
      [1, "deployFail", "system", 5],
      [5, "redeploy", "user", 1],
      [10, "deployOk", "system", 11],
      [10, "deployFail", "system", 5],
      [11, "publish", "system", 15],
      [11, "enable", "user", 16],
      [15, "enable", "user", 16],
      [16, "deactivate", "user", 20],
      [20, "enable", "user", 16],
    ],
    pass: () => ({}),
  },
  {
    machine: testServiceMachine,
    states: [1, 5, 10, 15, 20],
    events: ["edit", "deploy", "upgrade", "redeploy", "deployOk", "deployFail", "reset", "delete"],
    actors: ["user", "system", "operator"],
    notAvailable: Msg.TEST_SERVICE_ACTION_NOT_AVAILABLE,
    notAllowed: Msg.TEST_SERVICE_ACTION_NOT_AVAILABLE,
    commentsRequired: Msg.COMMENTS_REQUIRED,
    allows: [
      [1, "edit", "user", 1],
      [1, "deploy", "user", 5],
      [1, "delete", "user", 1],
      [5, "deployOk", "system", 10],
      [5, "deployFail", "system", 15],
      [5, "reset", "operator", 20],
      [10, "upgrade", "user", 5],
      [10, "redeploy", "user", 5],
      [10, "reset", "operator", 20],
      [10, "delete", "user", 10],
      [15, "edit", "user", 15],
      [15, "redeploy", "user", 5],
      [15, "delete", "user", 15],
      [20, "edit", "user", 20],
      [20, "redeploy", "user", 5],
      [20, "delete", "user", 20],
    ],
    pass: () => ({}),
  },
  {
    machine: ipfsUpgradeMachine,
    states: [0, 2, 5, 6],
    events: ["take", "succeed", "fail"],
    actors: ["operator"],
    notAvailable: Msg.IPFS_UPGRADE_NOT_AVAILABLE,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.IPFS_UPGRADE_REASON_REQUIRED,
    allows: [
      [0, "take", "operator", 2],
      [0, "fail", "operator", 6],
      [2, "succeed", "operator", 5],
      [2, "fail", "operator", 6],
    ],
    comments: [["fail", "operator"]],
    pass: () => ({ comments: "no room on the node" }),
  },
  {
    machine: ticketMachine,
    states: [1, 2, 3],
    events: ["reply", "close"],
    actors: ["user", "operator"],
    notAvailable: Msg.TICKET_NOT_AVAILABLE,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.INVALID_PARAMS,
    allows: [
      [1, "reply", "user", 1],
      [1, "reply", "operator", 2],
      [1, "close", "user", 3],
      [1, "close", "operator", 3],
      [2, "reply", "user", 1],
      [2, "reply", "operator", 2],
      [2, "close", "user", 3],
      [2, "close", "operator", 3],
    ],
    pass: () => ({}),
  },
  {
    // docs/decisions/048
    machine: crossChainMachine,
    states: [0, 1, 2, 3, 4],
    events: ["open", "approve", "reject", "deactivate", "close"],
    actors: ["publisher", "operator"],
    notAvailable: Msg.XC_NOT_AVAILABLE,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.COMMENTS_REQUIRED,
    allows: [
      [0, "open", "publisher", 3],
      [0, "close", "publisher", 2],
      [1, "deactivate", "publisher", 4],
      [2, "open", "publisher", 3],
      [3, "approve", "operator", 1],
      [3, "reject", "operator", 0],
      [3, "close", "publisher", 2],
      [4, "approve", "operator", 0],
      [4, "reject", "operator", 1],
    ],
    comments: [["reject", "operator"]],
    pass: () => ({ comments: "ok", openRefusal: null, upgrading: false }),
    guards: {
      open: { ctx: { openRefusal: Msg.XC_PROTOCOL_UNSUPPORTED }, messageKey: Msg.XC_PROTOCOL_UNSUPPORTED },
      close: { ctx: { upgrading: true }, messageKey: Msg.XC_CLOSE_UPGRADING },
    },
  },
  {
    machine: prnProjectMachine,
    states: [1, 2, 3, 4, 5, 6],
    events: ["deploy", "deployed", "fail", "unsubscribe", "lapse", "delete"],
    actors: ["user", "system"],
    notAvailable: Msg.PRN_NOT_ALLOWED_IN_STATUS,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.PRN_NETWORK_FAILED,
    allows: [
      [1, "deploy", "system", 2],
      [1, "fail", "system", 4],
      [2, "deployed", "system", 3],
      [2, "fail", "system", 4],
      [3, "unsubscribe", "user", 6],
      [3, "lapse", "system", 6],
      [4, "delete", "user", 5],
      [6, "delete", "user", 5],
    ],
    comments: [["fail", "system"]],
    pass: () => ({ comments: "the orderer did not start" }),
  },
  {
    machine: prnUpgradeMachine,
    states: [1, 2, 3],
    events: ["succeed", "fail"],
    actors: ["system"],
    notAvailable: Msg.PRN_NOT_ALLOWED_IN_STATUS,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.PRN_NETWORK_FAILED,
    allows: [
      [1, "succeed", "system", 2],
      [1, "fail", "system", 3],
    ],
    comments: [["fail", "system"]],
    pass: () => ({ comments: "the peer did not start" }),
  },
];

describe.each(expected.map((e) => ({ name: e.machine.name, e })))("the $name machine", ({ e }) => {
  const { machine } = e;

  it("has the states, events, actors and refusals written here", () => {
    expect([...machine.states].sort((a, b) => a - b)).toEqual(e.states);
    expect([...machine.events].sort()).toEqual([...e.events].sort());
    expect([...machine.actors].sort()).toEqual([...e.actors].sort());
    expect(machine.refusals).toEqual({
      notAvailable: e.notAvailable,
      notAllowed: e.notAllowed,
      commentsRequired: e.commentsRequired,
    });
  });

  const every = e.states.flatMap((from) =>
    e.events.flatMap((event) => e.actors.map((actor) => ({ from, event, actor }))),
  );
  it.each(every)("$event by $actor from $from", ({ from, event, actor }) => {
    const result = machine.transition(from, event, actor, e.pass(event));
    const allowed = e.allows.find(([f, ev, a]) => f === from && ev === event && a === actor);
    const special = e.refuses?.find(([f, ev, a]) => f === from && ev === event && a === actor);
    if (allowed) return expect(result).toEqual({ ok: true, to: allowed[3] });
    if (special) return expect(result).toEqual({ ok: false, messageKey: special[3] });
    const someone = [...e.allows, ...(e.refuses ?? [])].some(([f, ev]) => f === from && ev === event);
    expect(result).toEqual({ ok: false, messageKey: someone ? e.notAllowed : e.notAvailable });
  });

  it("needs comments for the transitions written here, and for no other", () => {
    for (const [from, event, actor, to] of e.allows) {
      const needs = (e.comments ?? []).some(([ev, a]) => ev === event && a === actor);
      const blank = machine.transition(from, event, actor, { ...e.pass(event), comments: "  " });
      expect(blank, `${event} by ${actor} from ${from}`).toEqual(
        needs ? { ok: false, messageKey: e.commentsRequired } : { ok: true, to },
      );
    }
  });

  it("refuses a guarded event whose guard fails, from every state it is allowed from", () => {
    for (const [event, { ctx, messageKey }] of Object.entries(e.guards ?? {})) {
      const rows = e.allows.filter(([, ev]) => ev === event);
      expect(rows.length, event).toBeGreaterThan(0);
      for (const [from, , actor] of rows)
        expect(machine.transition(from, event, actor, ctx), `${event} by ${actor} from ${from}`).toEqual({
          ok: false,
          messageKey,
        });
    }
  });

  it.each(e.cases ?? [])("$event by $actor from $from in $ctx", ({ from, event, actor, ctx, outcome }) => {
    expect(machine.transition(from, event, actor, { ...e.pass(event), ...ctx })).toEqual(outcome);
  });
});
