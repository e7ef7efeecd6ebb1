import { describe, expect, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { callVueapi, inProcessVueapi, insertedUser, sessionOf } from "./in-process.ts";

/**
 * Operators' prices (docs/decisions/036): a change names only the fields it changes, is kept with its author
 * and time and in the audit log, and the very next quote reads it (the kept catalogue is cleared, ADR 030).
 */
const service = inProcessVueapi("prices", {});
const post = (p: string, body: object, token?: string) => callVueapi(service, p, body, token);

type Node = { nodeId: number; tpsPricePerMonthCents: number; tpsPricePerYearCents: number };
const catalogue = async () => (await post("/anon/platform/cityNodes", {})).data as Node[];

describe("the operators' price catalogue", () => {
  it("one changed price is recorded with its author, audited, and read by the next quote; the others stay", async () => {
    const name = `pr${Date.now().toString(36)}`;
    const op = await sessionOf(service, await insertedUser(service, name, "operator"));
    const [node] = await catalogue();
    const list = await post("/sys/ops/prices/list", {}, op);
    expect(list.code, JSON.stringify(list)).toBe(0);
    const item = list.data.areas
      .find((a: { area: string }) => a.area === "cityNode")
      .items.find((i: { itemId: number }) => i.itemId === node.nodeId);
    expect(item.prices).toContainEqual({ field: "tpsPricePerMonthCents", cents: node.tpsPricePerMonthCents });

    const raised = node.tpsPricePerMonthCents + 7;
    const set = await post(
      "/sys/ops/prices/set",
      { area: "cityNode", itemId: node.nodeId, prices: { tpsPricePerMonthCents: raised } },
      op,
    );
    try {
      expect(set, JSON.stringify(set)).toMatchObject({ code: 0, data: { changed: 1 } });
      const after = (await catalogue()).find((n) => n.nodeId === node.nodeId)!;
      expect(after.tpsPricePerMonthCents).toBe(raised);
      expect(after.tpsPricePerYearCents).toBe(node.tpsPricePerYearCents);

      const history = await post("/sys/ops/prices/history", { pageIndex: 1, pageSize: 5 }, op);
      expect(history.data.page.rows[0]).toMatchObject({
        area: "cityNode",
        itemId: node.nodeId,
        field: "tpsPricePerMonthCents",
        oldCents: node.tpsPricePerMonthCents,
        newCents: raised,
        author: name,
      });
      const audit = await post(
        "/sys/ops/audit/list",
        { actor: name, action: "price.change", pageIndex: 1, pageSize: 20 },
        op,
      );
      expect(audit.data.page.total).toBe(1);
      expect(audit.data.page.rows[0]).toMatchObject({ targetId: String(node.nodeId), decision: "set" });

      // The same price again changes nothing and records nothing.
      const again = await post(
        "/sys/ops/prices/set",
        { area: "cityNode", itemId: node.nodeId, prices: { tpsPricePerMonthCents: raised } },
        op,
      );
      expect(again.data.changed).toBe(0);
      expect((await post("/sys/ops/prices/history", { pageIndex: 1, pageSize: 5 }, op)).data.page.total).toBe(
        history.data.page.total,
      );
    } finally {
      await post(
        "/sys/ops/prices/set",
        { area: "cityNode", itemId: node.nodeId, prices: { tpsPricePerMonthCents: node.tpsPricePerMonthCents } },
        op,
      );
    }
    expect((await catalogue()).find((n) => n.nodeId === node.nodeId)!.tpsPricePerMonthCents).toBe(
      node.tpsPricePerMonthCents,
    );
  });

  it("refuses a user, a field of another area, an unknown item and a negative price, each with its reason", async () => {
    const user = await sessionOf(service, await insertedUser(service, `pu${Date.now().toString(36)}`));
    const op = await sessionOf(service, await insertedUser(service, `po${Date.now().toString(36)}`, "operator"));
    const [node] = await catalogue();
    expect(
      (
        await post(
          "/sys/ops/prices/set",
          { area: "cityNode", itemId: node.nodeId, prices: { tpsPricePerMonthCents: 1 } },
          user,
        )
      ).code,
    ).not.toBe(0);
    expect((await post("/sys/ops/prices/list", {}, user)).code).not.toBe(0);
    expect(
      (await post("/sys/ops/prices/set", { area: "cityNode", itemId: node.nodeId, prices: { priceCents: 1 } }, op))
        .message,
    ).toBe(Msg.PRICE_ITEM_UNKNOWN);
    expect(
      (
        await post(
          "/sys/ops/prices/set",
          { area: "cityNode", itemId: 987654, prices: { tpsPricePerMonthCents: 1 } },
          op,
        )
      ).message,
    ).toBe(Msg.PRICE_ITEM_UNKNOWN);
    const negative = await post(
      "/sys/ops/prices/set",
      { area: "cityNode", itemId: node.nodeId, prices: { tpsPricePerMonthCents: -1 } },
      op,
    );
    expect(negative.message).toBe(Msg.INVALID_PARAMS);
    expect(Object.keys(negative.data.fieldErrors ?? {}).join()).toMatch(/prices/);
    expect((await catalogue()).find((n) => n.nodeId === node.nodeId)!.tpsPricePerMonthCents).toBe(
      node.tpsPricePerMonthCents,
    );
  });
});
