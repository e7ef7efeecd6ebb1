/**
 * The one state-machine kit (docs/decisions/018), pure and Zod-free so that the portal may evaluate a machine
 * too (the app store's product actions). A machine is a table of rules: from which states an event
 * by an actor moves to which state, under which guard, with which refusal. SPEC §4 leaves the transitions
 * "not shown"; each domain writes its reading as such a table in its machine.ts, and its table-driven test is
 * generated from the same table (tests/unit/machines.test.ts). Used by the service lifecycle and refunds
 * (backend/domains/services/machine.ts), participation, invoices and products (contract/store-codes.ts).
 */
export type MachineRule<S extends number, E extends string, A extends string, C> = {
  readonly event: E;
  readonly actor: A;
  /** The state or states it applies from. */
  readonly from: S | readonly S[];
  /** The state after the event; a function when it depends on the context (a free service skips payment). */
  readonly to: S | ((ctx: C, from: S) => S);
  /** The event needs comments (rejections, suspensions). */
  readonly commentsRequired?: boolean;
  /** A further condition: the refusal's message key, or null when the event may happen. */
  readonly guard?: (ctx: C) => string | null;
};

export type MachineSpec<S extends number, E extends string, A extends string, C> = {
  readonly name: string;
  readonly states: readonly S[];
  readonly actors: readonly A[];
  readonly rules: readonly MachineRule<S, E, A, C>[];
  /** The refusals (§8 message keys): no rule for the event from this state; a rule, but for another actor; no comments. */
  readonly refusals: { readonly notAvailable: string; readonly notAllowed: string; readonly commentsRequired: string };
  /** A condition under which no event applies at all (a disabled participant), checked first. */
  readonly blocked?: (ctx: C) => boolean;
};

export type TransitionOutcome<S extends number> = { ok: true; to: S } | { ok: false; messageKey: string };

export type Machine<S extends number, E extends string, A extends string, C> = MachineSpec<S, E, A, C> & {
  readonly events: readonly E[];
  /** The state after `event` by `actor` from `from`, or the message key of the refusal. Pure. */
  transition(from: number, event: E, actor: A, ctx?: C): TransitionOutcome<S>;
};

/** The states a rule applies from. */
export function fromStates<S extends number>(rule: { readonly from: S | readonly S[] }): readonly number[] {
  return typeof rule.from === "number" ? [rule.from] : (rule.from as readonly number[]);
}

/**
 * Declares a machine. Checks, in order: blocked → not available; no rule for the event from `from` → not
 * available; no rule for the actor → not allowed; the guard's refusal; comments required.
 */
export function defineMachine<
  S extends number,
  E extends string,
  A extends string,
  C extends { comments?: string | null },
>(spec: MachineSpec<S, E, A, C>): Machine<S, E, A, C> {
  const events = [...new Set(spec.rules.map((r) => r.event))];
  return {
    ...spec,
    events,
    transition(from, event, actor, ctx = {} as C) {
      const { notAvailable, notAllowed, commentsRequired } = spec.refusals;
      if (spec.blocked?.(ctx)) return { ok: false, messageKey: notAvailable };
      const forEvent = spec.rules.filter((r) => r.event === event && fromStates(r).includes(from));
      if (forEvent.length === 0) return { ok: false, messageKey: notAvailable };
      const rule = forEvent.find((r) => r.actor === actor);
      if (!rule) return { ok: false, messageKey: notAllowed };
      const refused = rule.guard?.(ctx);
      if (refused) return { ok: false, messageKey: refused };
      if (rule.commentsRequired && !ctx.comments?.trim()) return { ok: false, messageKey: commentsRequired };
      return { ok: true, to: typeof rule.to === "function" ? rule.to(ctx, from as S) : rule.to };
    },
  };
}

/**
 * The events `actor` may take from `from`, in table order (a queue's decision choices for one record); blocked
 * contexts and guards are not evaluated.
 */
export function eventsFrom<E extends string, A extends string>(
  machine: { readonly rules: readonly { event: E; actor: A; from: number | readonly number[] }[] },
  from: number,
  actor: A,
): E[] {
  const rules = machine.rules.filter((r) => r.actor === actor && fromStates(r).includes(from));
  return [...new Set(rules.map((r) => r.event))];
}

/** Whether `event` by `actor` needs comments (a rule of the machine says so), wherever it applies from. */
export function commentsRequiredFor<E extends string, A extends string>(
  machine: { readonly rules: readonly { event: E; actor: A; commentsRequired?: boolean }[] },
  event: E,
  actor: A,
): boolean {
  return machine.rules.some((r) => r.event === event && r.actor === actor && r.commentsRequired === true);
}
