import "./setup-env.ts";
import { describe, expect, it } from "vitest";
import type { IdeCallResult } from "#contract/ide.ts";
import { redirectAfterWrite, takeWritten, writtenCookie, writtenFlash } from "#app/lib/contract-write.server.ts";
import { getFlash } from "#app/lib/session.server.ts";

/** The contract page's write as post-redirect-get (issue 30 leftovers; docs/decisions/081). */

const HASH = `0x${"ab".repeat(32)}`;
const ADDRESS = `0x${"12".repeat(20)}`;

function resultWith(events: number, status: "success" | "reverted" | null = "success"): IdeCallResult {
  return {
    signature: "set(uint256)",
    kind: "write",
    outputs: [],
    transaction: { hash: HASH, from: ADDRESS, to: ADDRESS, nonce: 3, input: `0x${"00".repeat(400)}`, value: "0" },
    receipt: status ? { status, blockNumber: 42, gasUsed: "26000", effectiveGasPrice: "1" } : null,
    events: Array.from({ length: events }, (_, i) => ({
      logIndex: i,
      address: ADDRESS,
      eventName: "Changed",
      args: [
        { name: "by", value: ADDRESS },
        { name: "value", value: String(i) },
      ],
      topics: [HASH, HASH],
      data: `0x${"00".repeat(32)}`,
    })),
  };
}

/** The request the redirect's browser sends next: the cookies the response set, as a Cookie header. */
function following(response: Response | string[], path = "/g/home/PermissionlessServices/Contract?contractId=5") {
  const set = Array.isArray(response) ? response : response.headers.getSetCookie();
  const cookie = set.map((c) => c.slice(0, c.indexOf(";"))).join("; ");
  return new Request(`http://portal.test${path}`, { headers: { Cookie: cookie } });
}

describe("the contract write's redirect", () => {
  it("answers 303 to the page with the flash and the result, the result read once and only by its contract", async () => {
    const request = new Request("http://portal.test/g/home/PermissionlessServices/Contract?contractId=5", {
      method: "POST",
    });
    const response = await redirectAfterWrite(request, "/g/home/PermissionlessServices/Contract?contractId=5", {
      contractId: 5,
      signature: "set(uint256)",
      result: resultWith(1),
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/g/home/PermissionlessServices/Contract?contractId=5");
    const cookies = response.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith("__contract_written="))).toMatch(
      /Path=\/g\/home\/PermissionlessServices\/Contract;/,
    );

    const { flash } = await getFlash(following(response));
    expect(flash).toEqual({
      kind: "success",
      key: "contracts:flash.written",
      params: { hash: `${HASH.slice(0, 10)}…`, block: "42" },
    });

    const first = await takeWritten(following(response), 5);
    expect(first.written?.signature).toBe("set(uint256)");
    expect(first.written?.result.transaction?.hash).toBe(HASH);
    expect(first.written?.result.events.map((e) => e.args[1]!.value)).toEqual(["0"]);
    expect(first.written?.moreEvents).toBe(0);
    // The cookie it answers with no longer holds the result: the page reloaded shows it no more.
    const again = await takeWritten(following([first.setCookie!]), 5);
    expect(again.written).toBeNull();

    const other = await takeWritten(following(response), 6);
    expect(other.written).toBeNull();
    expect(other.setCookie).not.toBeNull();
  });

  it("stays under a cookie's 4 KB: events that do not fit are counted, not carried", async () => {
    const cookie = await writtenCookie({ contractId: 5, signature: "set(uint256)", result: resultWith(60) });
    expect(cookie.length).toBeLessThan(4000);
    const { written } = await takeWritten(following([cookie]), 5);
    expect(written!.result.events.length).toBeGreaterThan(0);
    expect(written!.result.events.length + written!.moreEvents).toBe(60);
    expect(written!.result.events[0]!.topics).toEqual([]);
    expect(written!.result.transaction!.input).toBe("");
  });

  it("says a reverted transaction as an error and one with no receipt yet as sent", () => {
    expect(writtenFlash(resultWith(0, "reverted"))).toMatchObject({
      kind: "error",
      key: "contracts:flash.writeReverted",
    });
    expect(writtenFlash(resultWith(0, null))).toMatchObject({ kind: "info", key: "contracts:flash.writeSent" });
  });
});
