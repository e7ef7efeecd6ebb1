/**
 * App store constants and the product state machine without Zod (contract/store.ts re-exports them), so
 * pages that need only these do not ship the schema library to the browser.
 */
import { Msg } from "./messages.ts";
import { defineMachine } from "./state-machine.ts";

export const ProductStatus = { PENDING_SUBMIT: 0, PENDING_APPROVAL: 1, LISTED: 2, REJECTED: 3, REMOVED: 4 } as const;
export const PRODUCT_STATUSES = [0, 1, 2, 3, 4] as const;

export type ProductEvent = "edit" | "submit" | "approve" | "reject" | "remove";
export type ProductActor = "owner" | "operator";

/**
 * The product state machine as data (§4 Product; the transitions are "not shown", docs/decisions/014):
 * `edit` keeps the status, the others move it. The backend refuses anything not in this table.
 */
export const PRODUCT_TRANSITIONS: readonly {
  event: ProductEvent;
  from: readonly number[];
  to: number | null;
  actor: ProductActor;
}[] = [
  { event: "edit", from: [0, 3], to: null, actor: "owner" },
  { event: "submit", from: [0, 3], to: 1, actor: "owner" },
  { event: "approve", from: [1], to: 2, actor: "operator" },
  { event: "reject", from: [1], to: 3, actor: "operator" },
  { event: "remove", from: [2], to: 4, actor: "owner" },
];

/** The table above as a machine (contract/state-machine.ts): `edit` keeps the status it starts from. */
export const productMachine = defineMachine<number, ProductEvent, ProductActor, { comments?: string | null }>({
  name: "product",
  states: PRODUCT_STATUSES,
  actors: ["owner", "operator"],
  rules: PRODUCT_TRANSITIONS.map((t) => ({
    event: t.event,
    actor: t.actor,
    from: t.from,
    to: t.to ?? ((_ctx, from) => from),
  })),
  refusals: {
    notAvailable: Msg.PRODUCT_ACTION_NOT_ALLOWED,
    notAllowed: Msg.PRODUCT_ACTION_NOT_ALLOWED,
    commentsRequired: Msg.COMMENTS_REQUIRED,
  },
});

/** The status an event leads to from `status` (the same status for `edit`), or null when refused. */
export function productTransition(status: number, event: ProductEvent, actor: ProductActor): number | null {
  const result = productMachine.transition(status, event, actor);
  return result.ok ? result.to : null;
}

/** The owner's actions offered on a product in a status. */
export function ownerActions(status: number): ProductEvent[] {
  return PRODUCT_TRANSITIONS.filter((t) => t.actor === "owner" && t.from.includes(status)).map((t) => t.event);
}

/** Product types (the store's categories) and payment modes (products.productType, payMode). */
export const PRODUCT_TYPES = ["1", "2", "3", "4"] as const;
export const PAY_MODES = ["1", "2", "3"] as const;
export const PRODUCT_NAME_MAX = 50;
export const PRODUCT_BRIEF_MAX = 200;
export const PRODUCT_DESCRIPTION_MAX = 2000;
