import type { TFunction } from "i18next";
import type { BreakdownLine } from "#contract/bill-breakdown.ts";
import { callHref } from "./cross-chain-urls.ts";
import { ddcDetailHref } from "./ddc-urls.ts";
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

/** The page behind a line, where one exists: the DDC, the cross-chain call, the transaction, the IPFS service, the service. */
export function lineHref(line: Pick<BreakdownLine, "kind" | "ref" | "txHash">): string | null {
  const ref = line.ref;
  if (ref?.kind === "ddc") return ddcDetailHref(ref.ddcId);
  if (ref?.kind === "crossChainCall") return callHref(ref.appId, ref.callId);
  if (line.kind === "gas" && line.txHash) return transactionHref(line.txHash);
  if (ref?.kind === "ipfsService") return `/g/home/IPFS/Service?ipfsServiceId=${ref.ipfsServiceId}`;
  if (ref?.kind === "service")
    return `/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${ref.appId}`;
  return null;
}
