import { describe, expect, it } from "vitest";
import { hasEnded, newWorker, parseWorker, pidAlive, thisProcess, workerLabel } from "#backend/jobs/worker.ts";

// docs/decisions/005: the identity a job runner writes on the rows it claims, and when another process on
// the same host may take those rows over at once instead of waiting for their leases.
describe("job workers", () => {
  it("writes and reads back its identity, host names with colons included", () => {
    const worker = newWorker({ host: "node-a.example", pidSpace: "4026531836", pid: 4242 });
    expect(parseWorker(workerLabel(worker))).toEqual(worker);
    const odd = newWorker({ host: "fe80::1", pidSpace: "", pid: 7 });
    expect(parseWorker(workerLabel(odd))).toEqual(odd);
    expect(parseWorker(workerLabel(thisProcess))).toEqual(thisProcess);
    for (const bad of [null, "", "host:1:abc", "host::0:abcdef", "host::12:XYZ", "no-colons"])
      expect(parseWorker(bad)).toBeNull();
  });

  it("each start has its own random instance", () => {
    expect(newWorker().instance).not.toBe(newWorker().instance);
    expect(thisProcess.pid).toBe(process.pid);
  });

  it("sees a holder on this host as ended only when its pid is gone or is an earlier life of its own pid", () => {
    const me = newWorker({ host: "h", pidSpace: "1", pid: 100 });
    const alive = (pid: number) => pid === 200;
    const holder = (overrides: Partial<typeof me>) => ({ ...me, instance: "0ther", ...overrides });
    expect(hasEnded(holder({ pid: 300 }), me, alive)).toBe(true);
    expect(hasEnded(holder({ pid: 100 }), me, alive)).toBe(true);
    expect(hasEnded(holder({ pid: 200 }), me, alive)).toBe(false);
    expect(hasEnded(holder({ pid: 300, host: "other" }), me, alive)).toBe(false);
    expect(hasEnded(holder({ pid: 300, pidSpace: "2" }), me, alive)).toBe(false);
    expect(hasEnded(me, me, alive)).toBe(false);
  });

  it("asks the operating system whether a pid lives", () => {
    expect(pidAlive(process.pid)).toBe(true);
    expect(pidAlive(2 ** 22 + 12345)).toBe(false);
  });
});
