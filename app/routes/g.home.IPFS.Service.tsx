import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { IPFS_KEY_KINDS } from "#contract/ipfs-codes.ts";
import { Msg } from "#contract/messages.ts";
import {
  IPFS_SERVICE_INTENTS,
  IpfsServicePage,
  type IpfsServiceAnswer,
  type IpfsServiceIntent,
} from "#app/components/ipfs/ServicePage.tsx";
import { IPFS, serviceHref } from "#app/lib/ipfs-urls.ts";
import { apiFor, failureStatus, redirectAfter, requireUser } from "#app/lib/api.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { serviceIdParam, uploadThroughGateway } from "#app/lib/ipfs.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { oneOf, pageParam, positiveId, searchParam } from "#app/lib/params.ts";
import { siteOrigin } from "#app/lib/public-chain.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { blockOf, requireNoUnpaidBills } from "#app/lib/unpaid-guard.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["ipfs", "publicChain", "billing", "services"],
  breadcrumb: [{ key: "titles.ipfs", to: IPFS }, { key: "titles.ipfsService" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("ipfsService", (d: { service?: { name: string } }) => d.service?.name);

const PAGE_SIZE = 20;
/** The moves that ask first (a dialog with JavaScript, a confirm step without). */
const CONFIRMED: readonly IpfsServiceIntent[] = ["regenerateKey", "deactivateKey", "unpin"];

/**
 * An IPFS service (SPEC §2 "detail", §3, §4 IPFS key): capacity used, gateways, the two keys, the files with
 * upload (streamed through the service's gateway, with progress when JavaScript is on), download and unpin.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const ipfsServiceId = serviceIdParam(request);
  const url = new URL(request.url);
  const name = searchParam(url.searchParams);
  const api = apiFor(request, viewer);
  const [service, files, upgrades, block] = await Promise.all([
    api.load("/sys/ipfsBusiness/ipfs/detail", { ipfsServiceId }),
    api.load("/sys/ipfsBusiness/ipfs/files", {
      ipfsServiceId,
      pageIndex: pageParam(url),
      pageSize: PAGE_SIZE,
      ...(name ? { name } : {}),
    }),
    api.load("/sys/ipfsBusiness/ipfsUpgrade/list", { ipfsServiceId, pageIndex: 1, pageSize: 10 }),
    blockOf(api, 1),
  ]);
  return json({
    service,
    files: files.page,
    upgrades: upgrades.page,
    block,
    name,
    origin: siteOrigin(request),
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const ipfsServiceId = serviceIdParam(request);
  const api = apiFor(request, viewer);
  const here = serviceHref(ipfsServiceId);
  // The upload form is the page's only multipart form.
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    const service = await api.load("/sys/ipfsBusiness/ipfs/detail", { ipfsServiceId });
    const outcome = await uploadThroughGateway(request, api, service);
    if (outcome.ok)
      return redirectWithFlash(request, here, {
        kind: "success",
        key: outcome.alreadyStored ? "ipfs:upload.alreadyStored" : "ipfs:upload.done",
        params: { name: outcome.name, cid: outcome.cid },
      });
    // SPEC §5: unpaid bills block uploads; home explains them and pays them ("Pay and continue").
    if (outcome.messageKey === `errors:${Msg.UNPAID_BILLS}`) await requireNoUnpaidBills(request, viewer, "ipfsUpload");
    return json<IpfsServiceAnswer>(
      { kind: "refused", messageKey: outcome.messageKey },
      { status: outcome.status >= 400 && outcome.status < 500 ? outcome.status : 409 },
    );
  }
  const formData = await request.formData();
  const intent = intentOf(formData, IPFS_SERVICE_INTENTS);
  const kind = oneOf(IPFS_KEY_KINDS, String(formData.get("kind") ?? "")) ?? "upload";
  const ipfsFileId = positiveId(String(formData.get("ipfsFileId") ?? ""));
  if (intent === "unpin" && !ipfsFileId)
    return json<IpfsServiceAnswer>({ kind: "refused", messageKey: "errors:http.400" }, { status: 400 });
  if (CONFIRMED.includes(intent) && formData.get("confirmed") !== "yes") {
    return json<IpfsServiceAnswer>({
      kind: "confirm",
      intent,
      fields: intent === "unpin" ? { ipfsFileId: String(ipfsFileId) } : { kind },
    });
  }
  if (intent === "unpin") {
    const unpinned = await api.call("/sys/ipfsBusiness/ipfs/unpin", { ipfsServiceId, ipfsFileId: ipfsFileId! });
    const kept = unpinned.ok && !unpinned.data.freed;
    return redirectAfter(request, unpinned, here, kept ? "ipfs:file.unpinnedKept" : "ipfs:file.unpinned");
  }
  const move = (
    { showKey: "show", regenerateKey: "regenerate", deactivateKey: "deactivate", activateKey: "activate" } as const
  )[intent];
  const result = await api.call("/sys/ipfsBusiness/ipfs/key", { ipfsServiceId, kind, action: move });
  if (move === "show" || move === "regenerate") {
    if (!result.ok)
      return json<IpfsServiceAnswer>(
        { kind: "refused", messageKey: result.messageKey },
        { status: failureStatus(result) },
      );
    return json<IpfsServiceAnswer>({
      kind: "key",
      shown: { kind, apiKey: result.data.apiKey, regenerated: move === "regenerate" },
    });
  }
  return redirectAfter(request, result, here, `ipfs:key.${move}d`);
}

export default function IpfsService() {
  return <IpfsServicePage {...useLoaderData<typeof loader>()} />;
}
