import { readFileSync } from "node:fs";
import path from "node:path";
import { createInstance, type TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { BillType } from "#contract/billing-codes.ts";
import { billCycleLabel } from "#app/lib/bills.ts";
import { formatBytes, formatSize } from "#app/lib/format-number.ts";
import { messageParams } from "#app/lib/format.ts";
import { hostOf } from "#app/lib/host-config.ts";

/** Issue 30 item 8: the labels people read say what things are, the same way on every page. */
const ROOT = path.resolve(__dirname, "../..");
const namespace = (lng: string, ns: string) =>
  JSON.parse(readFileSync(path.join(ROOT, "locales", lng, `${ns}.json`), "utf8")) as Record<string, unknown>;

async function translator(lng: "en" | "zh-CN", ns: string[]): Promise<TFunction> {
  const i18n = createInstance();
  await i18n.init({
    resources: { [lng]: Object.fromEntries(ns.map((n) => [n, namespace(lng, n)])) },
    lng,
    ns,
    defaultNS: ns[0],
    interpolation: { escapeValue: false },
  });
  return i18n.t;
}

describe("sizes", () => {
  it("are GB with two decimals from 1024 MB up, whichever page and language", () => {
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(300 * 1024)).toBe("300 KB");
    expect(formatBytes(1023 * 1024 * 1024)).toBe("1023 MB");
    expect(formatBytes(1024 * 1024 * 1024)).toBe("1.00 GB");
    expect(formatBytes(150 * 1024 ** 3)).toBe("150.00 GB");
    expect(formatBytes(2048 * 1024 ** 3)).toBe("2048.00 GB");
    expect(formatSize(1536)).toBe("1.5 KB");
    expect(formatSize(1023 * 1024 * 1024)).toBe("1023.0 MB");
    expect(formatSize(2 * 1024 ** 3)).toBe("2.00 GB");
  });
});

describe("money in messages", () => {
  it("is the page language's currency format, as everywhere else", () => {
    expect(messageParams({ amount: "115.80", balance: "3.00", billNo: "B1" }, "en")).toEqual({
      amount: "$115.80",
      balance: "$3.00",
      billNo: "B1",
    });
    expect(messageParams({ amount: "115.80" }, "zh-CN").amount).toBe(
      new Intl.NumberFormat("zh-CN", { style: "currency", currency: "USD" }).format(115.8),
    );
  });
  it("no message text says USD beside its amount any more", () => {
    for (const lng of ["en", "zh-CN"]) {
      const text = readFileSync(path.join(ROOT, "locales", lng, "messages.json"), "utf8");
      expect(text).not.toMatch(/USD \{\{|\}\} ?美元/);
    }
  });
});

describe("bill cycles", () => {
  it("one-off bills are one-off, not Monthly", async () => {
    const t = await translator("en", ["billing"]);
    expect(billCycleLabel(t, { billType: BillType.MINT_DDC, cycle: 2 })).toBe("One-off");
    expect(billCycleLabel(t, { billType: BillType.ASSIGN_GAS, cycle: 2 })).toBe("One-off");
    expect(billCycleLabel(t, { billType: BillType.PUBLISH, cycle: 2 })).toBe("Monthly");
    expect(billCycleLabel(t, { billType: BillType.DATA_TRAFFIC, cycle: 99 })).toBe("Weekly");
    const zh = await translator("zh-CN", ["billing"]);
    expect(billCycleLabel(zh, { billType: BillType.TRANSFER_DDC, cycle: 2 })).toBe("一次性");
  });
});

describe("plurals", () => {
  it("count in English, and the number in Chinese", async () => {
    const en = await translator("en", ["publicChain", "operations", "invoices", "dedicatedNodes", "crossChain"]);
    expect(en("index.projectMax", { count: 1, used: 0 })).toBe("Up to 1 project (0 yours)");
    expect(en("index.projectMax", { count: 5, used: 2 })).toBe("Up to 5 projects (2 yours)");
    expect(en("create.plan", { plan: "Basic", used: 1, count: 1 })).toBe("Plan: Basic · 1 of 1 project used");
    expect(en("operations:failedJobs.retriedBefore", { count: 1, date: "d" })).toBe("Retried once before, last on d");
    expect(en("operations:failedJobs.retriedBefore", { count: 3, date: "d" })).toBe(
      "Retried 3 times before, last on d",
    );
    expect(en("invoices:add.dropped", { count: 1 })).toContain("was removed");
    expect(en("dedicatedNodes:create.region", { name: "Beijing", count: 1 })).toBe("Beijing (1 peer free)");
    expect(en("crossChain:detail.totals", { count: 1, total: "1", success: "1", failure: "0" })).toMatch(/^1 call ·/);
    const zh = await translator("zh-CN", ["publicChain"]);
    expect(zh("index.projectMax", { count: 1, used: 0 })).toBe("最多 1 个项目（您已有 0 个）");
  });
});

describe("host configurations", () => {
  it("read as vCPUs and memory, never as their code", async () => {
    expect(hostOf("c2m4")).toEqual({ cpu: 2, memoryGb: 4 });
    expect(hostOf("large")).toBeNull();
    const t = await translator("en", ["billing"]);
    expect(t("detail.other.hostConfig", { cpu: 2, memory: 4 })).toBe("2 vCPU, 4 GB memory");
  });
});
