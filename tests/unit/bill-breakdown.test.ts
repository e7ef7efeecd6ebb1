import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { lineFile, lineHref } from "#app/lib/bill-breakdown.ts";

// docs/decisions/093: an IPFS traffic line names its file (its name while the service keeps it, else its CID, or
// "not itemised by file" for traffic metered before files were counted) and leads to the service's files.
const t = ((key: string) => key) as unknown as TFunction;
const ref = { kind: "ipfsService", ipfsServiceId: 7 } as const;

describe("an IPFS traffic line's file", () => {
  it("is its name, else its CID, else not itemised by file; other lines have none", () => {
    expect(lineFile(t, { kind: "ipfsTraffic", cid: "bafyfile", fileName: "report.pdf" })).toBe("report.pdf");
    expect(lineFile(t, { kind: "ipfsTraffic", cid: "bafyfile", fileName: null })).toBe("bafyfile");
    expect(lineFile(t, { kind: "ipfsTraffic", cid: null, fileName: null })).toBe("billing:breakdown.notByFile");
    expect(lineFile(t, { kind: "traffic", cid: null, fileName: null })).toBeNull();
  });

  it("leads to the service's files searched by the file's name, or to the service", () => {
    expect(lineHref({ kind: "ipfsTraffic", ref, txHash: null, fileName: "a b&c.pdf" })).toBe(
      "/g/home/IPFS/Service?ipfsServiceId=7&name=a%20b%26c.pdf",
    );
    expect(lineHref({ kind: "ipfsTraffic", ref, txHash: null, fileName: null })).toBe(
      "/g/home/IPFS/Service?ipfsServiceId=7",
    );
  });
});
