import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, notFound, requireUser } from "#app/lib/api.server.ts";
import { downloadThroughGateway, serviceIdParam } from "#app/lib/ipfs.server.ts";
import { requireNoUnpaidBills } from "#app/lib/unpaid-guard.server.ts";

/**
 * A file of one of the user's IPFS services, from the console: streamed from the service's first city node
 * gateway with its download key (Range passed on), so it is metered and refused as any download is (SPEC §5).
 * Saved as an attachment; `open=1` views it as the gateway serves it (issue 30 item 11).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const ipfsServiceId = serviceIdParam(request);
  const params = new URL(request.url).searchParams;
  const cid = params.get("cid") ?? "";
  if (!/^[A-Za-z0-9]{10,120}$/.test(cid)) throw notFound();
  const api = apiFor(request, viewer);
  const service = await api.load("/sys/ipfsBusiness/ipfs/detail", { ipfsServiceId });
  try {
    return await downloadThroughGateway(
      request,
      api,
      service,
      cid,
      params.get("open") === "1" ? "asServed" : "attachment",
    );
  } catch (error) {
    // SPEC §5: unpaid bills block downloads; home explains them and pays them.
    if (error instanceof Response && error.status === 402) await requireNoUnpaidBills(request, viewer, "ipfsDownload");
    throw error;
  }
}
