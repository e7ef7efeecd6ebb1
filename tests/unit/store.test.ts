import { describe, expect, it } from "vitest";
import {
  commentFormSchema,
  ownerActions,
  participationOf,
  productFormSchema,
  productTransition,
  type ProductEvent,
} from "#contract/store.ts";

describe("product state machine (§4 Product)", () => {
  const table: [number, ProductEvent, "owner" | "operator", number | null][] = [
    [0, "edit", "owner", 0],
    [0, "submit", "owner", 1],
    [0, "approve", "operator", null],
    [0, "remove", "owner", null],
    [1, "edit", "owner", null],
    [1, "submit", "owner", null],
    [1, "approve", "operator", 2],
    [1, "reject", "operator", 3],
    [1, "approve", "owner", null],
    [2, "remove", "owner", 4],
    [2, "edit", "owner", null],
    [2, "reject", "operator", null],
    [3, "edit", "owner", 3],
    [3, "submit", "owner", 1],
    [3, "remove", "owner", null],
    [4, "submit", "owner", null],
    [4, "edit", "owner", null],
    [4, "remove", "owner", null],
  ];
  it.each(table)("from %i, %s by %s → %s", (from, event, actor, to) => {
    expect(productTransition(from, event, actor)).toBe(to);
  });
  it("offers the owner what the table allows", () => {
    expect(ownerActions(0)).toEqual(["edit", "submit"]);
    expect(ownerActions(1)).toEqual([]);
    expect(ownerActions(2)).toEqual(["remove"]);
    expect(ownerActions(3)).toEqual(["edit", "submit"]);
    expect(ownerActions(4)).toEqual([]);
  });
});

describe("app participation display (§4)", () => {
  it.each([
    [[], "none"],
    [[{ auditState: 0, disabled: false }], "reviewing"],
    [[{ auditState: 13, disabled: false }], "reviewing"],
    [[{ auditState: 2, disabled: false }], "none"],
    [[{ auditState: 4, disabled: false }], "none"],
    [[{ auditState: 15, disabled: false }], "participated"],
    [[{ auditState: 15, disabled: true }], "none"],
    [
      [
        { auditState: 2, disabled: false },
        { auditState: 0, disabled: false },
      ],
      "reviewing",
    ],
    [
      [
        { auditState: 0, disabled: false },
        { auditState: 15, disabled: false },
      ],
      "participated",
    ],
  ] as const)("%j → %s", (joins, expected) => {
    expect(participationOf([...joins])).toBe(expected);
  });
});

describe("store forms", () => {
  it("limits comments to 150 characters", () => {
    expect(commentFormSchema.safeParse({ appId: "1", text: "a".repeat(150) }).success).toBe(true);
    const long = commentFormSchema.safeParse({ appId: "1", text: "a".repeat(151) });
    expect(long.success).toBe(false);
    expect(long.error?.issues[0].message).toBe("store:validation.commentTooLong");
  });
  it("checks the product form", () => {
    const good = { name: "Kit", productType: "1", brief: "b", description: "d", suggestedPrice: "10.00", payMode: "2" };
    expect(productFormSchema.safeParse(good).success).toBe(true);
    expect(productFormSchema.safeParse({ ...good, suggestedPrice: "0" }).success).toBe(false);
    expect(productFormSchema.safeParse({ ...good, productType: "9" }).success).toBe(false);
    expect(productFormSchema.safeParse({ ...good, name: "x".repeat(51) }).success).toBe(false);
  });
});
