import { describe, expect, it } from "vitest";
import { writeCityNode } from "#backend/domains/platform/catalogue.ts";
import { callVueapi, inProcessVueapi, loginToken, registeredUser } from "./in-process.ts";

/** The city-node catalogue is kept per process and cleared by its write paths (docs/decisions/030). */
const service = inProcessVueapi("constants", { TEST_CAPTCHA: "CONST1" });

describe("the kept city-node catalogue", () => {
  it("a price change is seen by the very next call", async () => {
    const list = async () =>
      (await callVueapi(service, "/anon/platform/cityNodes")).data as {
        nodeId: number;
        tpsPricePerMonthCents: number;
      }[];
    const before = await list();
    const node = before[0];
    // Kept: a second read answers the same without the database.
    expect(await list()).toEqual(before);
    await writeCityNode(service.services, node.nodeId, { tpsPricePerMonthCents: node.tpsPricePerMonthCents + 11 });
    try {
      expect((await list()).find((n) => n.nodeId === node.nodeId)?.tpsPricePerMonthCents).toBe(
        node.tpsPricePerMonthCents + 11,
      );
    } finally {
      await writeCityNode(service.services, node.nodeId, { tpsPricePerMonthCents: node.tpsPricePerMonthCents });
    }
    expect(await list()).toEqual(before);
  });

  it("the console home counts the nodes of the kept catalogue", async () => {
    const user = await registeredUser(service, "const-home");
    const token = await loginToken(service, user.userName, user.password);
    const summary = (await callVueapi(service, "/main/home/summary", {}, token)).data;
    expect(summary.cityNodes).toBe((await callVueapi(service, "/anon/platform/cityNodes")).data.length);
    expect(summary.cityNodes).toBeGreaterThan(0);
  });
});
