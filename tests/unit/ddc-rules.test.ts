import { describe, expect, it } from "vitest";
import { ddcFileProblem, ddcMintFormSchema, metadataOfText } from "#contract/ddc.ts";
import { isMobileAllowed } from "#app/lib/mobile.ts";

// docs/decisions/045: the mint form's metadata lines, the file rule, and the public DDC pages on phones.
describe("DDC rules", () => {
  it.each([
    ["", []],
    ["grade=A", [{ key: "grade", value: "A" }]],
    [
      " grade = A \r\n\r\nyear=2026\n",
      [
        { key: "grade", value: "A" },
        { key: "year", value: "2026" },
      ],
    ],
    ["url=https://x.example/?a=b", [{ key: "url", value: "https://x.example/?a=b" }]],
    ["flag", [{ key: "flag", value: "" }]],
  ])("metadata lines %j", (text, expected) => {
    expect(metadataOfText(text)).toEqual(expected);
  });

  it("refuses a duplicate key, a line without a key and more than 20 entries", () => {
    const base = { accountId: "1", name: "n", storage: "product", idempotencyKey: "k".repeat(20) };
    const problem = (metadataText: string) => {
      const parsed = ddcMintFormSchema.safeParse({ ...base, metadataText });
      return parsed.success ? null : parsed.error.issues[0]!.message;
    };
    expect(problem("a=1\nb=2")).toBeNull();
    expect(problem("a=1\na=2")).toBe("ddc:validation.metadataDuplicate");
    expect(problem("=1")).toBe("ddc:validation.metadataKey");
    expect(problem(Array.from({ length: 21 }, (_, i) => `k${i}=v`).join("\n"))).toBe("ddc:validation.metadataCount");
    expect(ddcMintFormSchema.safeParse({ ...base, storage: "ipfs" }).success).toBe(false);
  });

  it.each([
    ["diploma.png", 10, null],
    ["scan.JPG", 10, null],
    ["report.pdf", 10, null],
    ["note.txt", 10, null],
    ["page.html", 10, "ddc:validation.fileType"],
    ["noext", 10, "ddc:validation.fileType"],
    ["big.png", 5 * 1024 * 1024 + 1, "ddc:validation.fileTooLarge"],
    ["empty.png", 0, "ddc:validation.fileRequired"],
  ])("file %s (%d bytes)", (name, size, expected) => {
    expect(ddcFileProblem({ name, size })).toBe(expected);
  });

  it("keeps ddc-view, ddc-QRCode and account-binding on the mobile allow-list, not the console pages", () => {
    expect(isMobileAllowed("/g/main/ddc-view")).toBe(true);
    expect(isMobileAllowed("/g/main/ddc-QRCode")).toBe(true);
    expect(isMobileAllowed("/g/main/account-binding")).toBe(true);
    expect(isMobileAllowed("/g/home/DDC")).toBe(false);
  });
});
