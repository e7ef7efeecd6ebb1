import { describe, expect, it } from "vitest";
import { FABRIC_CALLER_TTL_MS, Memo, certificateKey, forgetCallers } from "#backend/domains/fabric/gateway/memo.ts";

// The Fabric gateway's memo of channels and admitted callers (backend/domains/fabric/gateway/memo.ts): kept for
// FABRIC_CALLER_TTL_MS, refusals never kept, concurrent reads shared, and forgetCallers drops everything, including
// a read that was under way when it was called.
describe("the gateway's memo of callers", () => {
  it("keeps an admitted caller for its time, never a refusal, and reads once for concurrent calls", async () => {
    let now = 1_000;
    let reads = 0;
    const memo = new Memo<string | null>(FABRIC_CALLER_TTL_MS, () => now);
    let answer: string | null = "participant";
    const read = async () => {
      reads++;
      return answer;
    };
    const keep = (v: string | null) => v !== null;
    expect(await Promise.all([memo.get("a", read, keep), memo.get("a", read, keep)])).toEqual([
      "participant",
      "participant",
    ]);
    expect(reads).toBe(1);
    answer = null;
    now += FABRIC_CALLER_TTL_MS - 1;
    expect(await memo.get("a", read, keep)).toBe("participant");
    now += 1;
    expect(await memo.get("a", read, keep)).toBeNull();
    expect(await memo.get("a", read, keep)).toBeNull();
    expect(reads).toBe(3);
  });

  it("forgets every entry, and a read under way at that moment is not kept", async () => {
    const memo = new Memo<string>(FABRIC_CALLER_TTL_MS, () => 0);
    let reads = 0;
    const keep = () => true;
    await memo.get("a", async () => `v${++reads}`, keep);
    forgetCallers();
    expect(await memo.get("a", async () => `v${++reads}`, keep)).toBe("v2");
    let release!: () => void;
    const slow = memo.get("b", () => new Promise<string>((r) => (release = () => r(`v${++reads}`))), keep);
    forgetCallers();
    release();
    expect(await slow).toBe("v3");
    expect(await memo.get("b", async () => `v${++reads}`, keep)).toBe("v4");
    expect(certificateKey("pem")).toMatch(/^[0-9a-f]{64}$/);
  });
});
