import { describe, expect, it } from "vitest";
import { csvNumber, neutralise, toCsv } from "#app/lib/csv.server.ts";

describe("CSV exports neutralise formula cells (app/lib/csv.server.ts)", () => {
  it("puts a single quote before text that starts with = + - @ tab or CR", () => {
    for (const formula of [
      "=1+2",
      "+1",
      "-12.00",
      "@SUM(A1)",
      "\t=1",
      "\r=1",
      '=HYPERLINK("http://evil.example","x")',
    ]) {
      expect(neutralise(formula), JSON.stringify(formula)).toBe(`'${formula}`);
    }
    for (const text of ["Traceability", "1=1", " =1", "12.50", "中文", "", "'quoted"])
      expect(neutralise(text)).toBe(text);
  });

  it("writes numbers the exporter made as they are: negative amounts stay numbers", () => {
    const csv = toCsv([
      ["name", "amount"],
      ["-12.00", csvNumber("-12.00")],
      ["=cmd|' /C calc'!A0", csvNumber(3)],
      [null, csvNumber("0.75")],
    ]);
    expect(csv).toBe("name,amount\r\n'-12.00,-12.00\r\n'=cmd|' /C calc'!A0,3\r\n,0.75\r\n");
  });

  it("quotes as CSV needs after neutralising", () => {
    expect(toCsv([['=a,"b"']])).toBe(`"'=a,""b"""\r\n`);
  });

  it("accepts only plain decimals as number cells", () => {
    for (const bad of ["=1", "-1+1", "1e3", "", " 1", "0x10", "1,000", Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => csvNumber(bad), String(bad)).toThrow(/plain decimal/);
    }
  });
});
