import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { utc8Day } from "#app/lib/bills.ts";
import { csvNumber, csvResponse } from "#app/lib/csv.server.ts";
import { formatEther } from "#app/lib/format-number.ts";
import { formatDate } from "#app/lib/format.ts";
import { fixedT } from "#app/lib/i18n.server.ts";
import { idParam } from "#app/lib/public-chain.server.ts";

/** Gas in ether with up to 6 decimals as the list shows it, a number cell; empty when the chain did not answer. */
const gas = (wei: string | null) => (wei === null ? "" : csvNumber(formatEther(wei)));

/**
 * A public-chain project's chain accounts with their gas as CSV (issue 35 §3, docs/decisions/093): every account of
 * the project up to the backend's export limit, newest first, as the list shows them (gas read from the chain, in
 * gas units with up to 6 decimals; empty when the chain did not answer), with the warning value. Account names are
 * typed by people: every text cell is neutralised against spreadsheet formulas (app/lib/csv.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const projectId = idParam(request, "projectId");
  const data = await apiFor(request, viewer).load("/sys/opc/account/export", { projectId });
  const t = fixedT(viewer.language, "publicChain");
  const columns = ["name", "address", "keyType", "gas", "gasLow", "gasWarning", "created"] as const;
  const rows = data.rows.map((a) => [
    a.name,
    a.address,
    t(`keyType.${a.keyType}`, { defaultValue: String(a.keyType) }),
    gas(a.gasWei),
    a.gasLow ? t("accounts.csv.yes") : t("accounts.csv.no"),
    gas(a.gasWarningWei),
    formatDate(a.createdAt, viewer.language, true, false),
  ]);
  return csvResponse([columns.map((c) => t(`accounts.csv.${c}`)), ...rows], {
    asciiName: "chain-accounts",
    localName: t("accounts.csv.fileName"),
    day: utc8Day(new Date()),
    total: data.total,
    truncated: data.truncated,
  });
}
