import { describe, expect, it } from "vitest";
import { csvNumber, csvResponse, neutralise, toCsv } from "#app/lib/csv.server.ts";

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

describe("a CSV download (csvResponse)", () => {
  it("has a BOM, an ASCII and a UTF-8 file name, no-store, the count and the truncated flag", async () => {
    const res = csvResponse(
      [
        ["Name", "Amount"],
        ["=cmd", csvNumber("-1.50")],
      ],
      {
        asciiName: "transactions",
        localName: "交易记录",
        day: "2026-12-01",
        total: 12_000,
        truncated: true,
      },
    );
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe(
      `attachment; filename="transactions-2026-12-01.csv"; filename*=UTF-8''${encodeURIComponent("交易记录-2026-12-01.csv")}`,
    );
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Total-Count")).toBe("12000");
    expect(res.headers.get("X-Truncated")).toBe("1");
    // Response.text() drops a leading BOM, so the bytes are read.
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString("utf8")).toBe("Name,Amount\r\n'=cmd,-1.50\r\n");
  });

  it("keeps the ASCII name ASCII whatever it is given", () => {
    const res = csvResponse([], { asciiName: 'a b"c', localName: "x", day: "2026-12-01", total: 0, truncated: false });
    expect(res.headers.get("Content-Disposition")).toContain('filename="a_b_c-2026-12-01.csv"');
    expect(res.headers.get("X-Truncated")).toBe("0");
  });
});
