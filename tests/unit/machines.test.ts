import { describe, expect, it } from "vitest";
import { productMachine } from "#contract/store-codes.ts";
import { fromStates, type Machine } from "#contract/state-machine.ts";
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
 * Every machine's table-driven test, generated from its own table (contract/state-machine.ts): each state ×
 * event × actor gives the table's target, or the machine's refusal (no rule from that state → not
 * available; a rule for another actor → not allowed); a rule that needs comments refuses without them; a
 * guarded rule refuses with the guard's message in a context that fails it. A new machine joins by one
 * entry in `machines`.
 */
type AnyMachine = Machine<any, any, any, any>;
type Entry = {
  machine: AnyMachine;
  /** A context in which every guard of the event passes (and comments are given). */
  pass: (event: string) => Record<string, unknown>;
  /** Contexts in which the guard of a guarded event refuses. */
  fail?: Record<string, Record<string, unknown>>;
};

const now = new Date("2026-11-23T00:00:00Z");
const machines: Entry[] = [
  {
    machine: lifecycle,
    pass: (event) => ({
      comments: "ok",
      now,
      approvedAt: event === "expire" ? new Date(now.getTime() - 4 * 86_400_000) : now,
      enableRequested: event === "declineEnable",
    }),
    fail: {
      pay: { now, approvedAt: new Date(now.getTime() - 4 * 86_400_000) },
      expire: { now, approvedAt: now },
      requestEnable: { enableRequested: true },
      declineEnable: { comments: "ok", enableRequested: false },
    },
  },
  { machine: refundMachine, pass: () => ({ comments: "ok" }) },
  {
    machine: joinMachine,
    pass: (event) => ({
      comments: "ok",
      orderCents: event === "order" || event === "reorder" ? 100 : 0,
      orderExpired: event === "reorder",
    }),
    fail: {
      order: { orderCents: 0 },
      skipOrder: { orderCents: 100 },
      reorder: { orderCents: 100, orderExpired: false },
    },
  },
  { machine: invoiceMachine, pass: () => ({ comments: "ok" }) },
  { machine: productMachine, pass: () => ({ comments: "ok" }) },
  { machine: projectMachine, pass: () => ({}) },
  { machine: testServiceMachine, pass: () => ({}) },
  { machine: ipfsUpgradeMachine, pass: () => ({ comments: "no room on the node" }) },
  { machine: ticketMachine, pass: () => ({}) },
  {
    machine: crossChainMachine,
    pass: () => ({ comments: "ok", openRefusal: null, upgrading: false }),
    fail: { open: { openRefusal: "MSG_48103" }, close: { upgrading: true } },
  },
  { machine: prnProjectMachine, pass: () => ({ comments: "the orderer did not start" }) },
  { machine: prnUpgradeMachine, pass: () => ({ comments: "the peer did not start" }) },
];

describe.each(machines.map((entry) => ({ name: entry.machine.name, entry })))(
  "the $name machine, from its table",
  ({ entry }) => {
    const { machine, pass, fail = {} } = entry;
    const cases = machine.states.flatMap((from: number) =>
      machine.events.flatMap((event: string) => machine.actors.map((actor: string) => ({ from, event, actor }))),
    );

    it.each(cases)("$event by $actor from $from", ({ from, event, actor }) => {
      const matching = machine.rules.filter((r) => r.event === event && fromStates(r).includes(from));
      const rule = matching.find((r) => r.actor === actor);
      const ctx = pass(event);
      const result = machine.transition(from, event, actor, ctx);
      if (matching.length === 0)
        return expect(result).toEqual({ ok: false, messageKey: machine.refusals.notAvailable });
      if (!rule) return expect(result).toEqual({ ok: false, messageKey: machine.refusals.notAllowed });
      const refused = rule.guard?.(ctx);
      if (refused) return expect(result).toEqual({ ok: false, messageKey: refused });
      expect(result).toEqual({ ok: true, to: typeof rule.to === "function" ? rule.to(ctx, from) : rule.to });
      if (rule.commentsRequired) {
        expect(machine.transition(from, event, actor, { ...ctx, comments: "  " })).toEqual({
          ok: false,
          messageKey: machine.refusals.commentsRequired,
        });
      }
      if (rule.guard && fail[event]) {
        const failed = machine.transition(from, event, actor, fail[event]);
        expect(failed.ok).toBe(false);
        expect(failed).toEqual({ ok: false, messageKey: rule.guard(fail[event]) });
      }
    });

    it("every rule names states, events and actors of the machine", () => {
      for (const rule of machine.rules) {
        for (const s of fromStates(rule)) expect(machine.states).toContain(s);
        if (typeof rule.to === "number") expect(machine.states).toContain(rule.to);
        expect(machine.actors).toContain(rule.actor);
      }
    });
  },
);
