import type { TFunction } from "i18next";
import type { BreakdownLine } from "#contract/bill-breakdown.ts";
import { callHref } from "./cross-chain-urls.ts";
import { ddcDetailHref } from "./ddc-urls.ts";
import { serviceHref } from "./ipfs-urls.ts";
import { transactionHref } from "./public-chain-urls.ts";

/**
 * A bill's breakdown as the page and its CSV read it (docs/decisions/093): a line's name, how much it counts and
 * the page behind it. No Zod here (browser bundle).
 */

const GB = 1024 ** 3;

/** The BillDetail breakdown's CSV address, for a bill. */
export const breakdownCsvHref = (billId: number) => `/g/home/userCenter/BillDetail/breakdown.csv?billId=${billId}`;

/** What a line is, in words. */
export const lineKindLabel = (t: TFunction, line: Pick<BreakdownLine, "kind">) =>
  t(`billing:breakdown.kinds.${line.kind}`);

/** Gigabytes of a metered line, with 6 decimals (a line may count a few bytes). */
export const lineGb = (line: Pick<BreakdownLine, "bytes">) =>
  line.bytes === null ? null : (line.bytes / GB).toFixed(6);

/**
 * The page behind a line, where one exists: the DDC, the cross-chain call, the transaction, the service, the IPFS
 * service, or for a file it still keeps its files list searched by the file's name (there is no page per file).
 */
export function lineHref(line: Pick<BreakdownLine, "kind" | "ref" | "txHash" | "fileName">): string | null {
  const ref = line.ref;
  if (ref?.kind === "ddc") return ddcDetailHref(ref.ddcId);
  if (ref?.kind === "crossChainCall") return callHref(ref.appId, ref.callId);
  if (line.kind === "gas" && line.txHash) return transactionHref(line.txHash);
  if (ref?.kind === "ipfsService")
    return line.fileName
      ? `${serviceHref(ref.ipfsServiceId)}&name=${encodeURIComponent(line.fileName.slice(0, 50))}`
      : serviceHref(ref.ipfsServiceId);
  if (ref?.kind === "service")
    return `/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${ref.appId}`;
  return null;
}

/** The file of an IPFS traffic line, in words: its name (the CID when the service no longer keeps it). */
export function lineFile(t: TFunction, line: Pick<BreakdownLine, "kind" | "cid" | "fileName">): string | null {
  if (line.kind !== "ipfsTraffic") return null;
  if (line.cid === null) return t("billing:breakdown.notByFile");
  return line.fileName ?? line.cid;
}
