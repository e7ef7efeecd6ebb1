import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ipfsUpgradeCreateSchema } from "#contract/ipfs.ts";
import { capacityLabel } from "#app/components/ipfs/badges.tsx";
import { NewUpgradePage, type NewUpgradeAnswer } from "#app/components/ipfs/NewUpgradePage.tsx";
import { upgradeHref } from "#app/components/ipfs/upgrades.tsx";
import { IPFS } from "#app/lib/ipfs-urls.ts";
import { apiFor, failureStatus, requireUser } from "#app/lib/api.server.ts";
import { formatUsd } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { serviceIdParam } from "#app/lib/ipfs.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { newIdempotencyKey } from "#app/lib/payments.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { requireNoUnpaidBills, unlessRefusedForBills } from "#app/lib/unpaid-guard.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["ipfs"], breadcrumb: [{ key: "titles.ipfs", to: IPFS }, { key: "titles.ipfsUpgrade" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("ipfsUpgrade");

type ActionData = NewUpgradeAnswer;

/**
 * New upgrade (SPEC §2 IPFS "new upgrade"): the current capacity, a larger one to choose with the price difference
 * for the rest of the paid period, and the balance it is paid from. Paying asks first (a dialog with JavaScript,
 * a confirm step without); unpaid bills block it (§5), and the backend checks every rule again.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const ipfsServiceId = serviceIdParam(request);
  await requireNoUnpaidBills(request, viewer, "ipfsUpgrade");
  const api = apiFor(request, viewer);
  const [options, account] = await Promise.all([
    api.load("/sys/ipfsBusiness/ipfsUpgrade/options", { ipfsServiceId }),
    api.load("/sys/account/summary", {}),
  ]);
  return json({
    options,
    balanceCents: account.balanceCents,
    idempotencyKey: newIdempotencyKey(),
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const ipfsServiceId = serviceIdParam(request);
  await requireNoUnpaidBills(request, viewer, "ipfsUpgrade");
  const formData = await request.formData();
  intentOf(formData, ["upgrade"]);
  const parsed = ipfsUpgradeCreateSchema.safeParse({
    ipfsServiceId,
    toStoreUnit: formData.get("toStoreUnit") ?? undefined,
    idempotencyKey: formData.get("idempotencyKey") ?? undefined,
  });
  if (!parsed.success) {
    const key = parsed.error.issues.some((i) => i.path[0] === "toStoreUnit")
      ? "validation.ipfsUpgradeCapacity"
      : "errors:http.400";
    return json<ActionData>({ kind: "refused", messageKey: key, toStoreUnit: null }, { status: 400 });
  }
  const api = apiFor(request, viewer);
  if (formData.get("confirmed") !== "yes") {
    // Without JavaScript: the confirm step, with the difference as the backend prices it now.
    const options = await api.load("/sys/ipfsBusiness/ipfsUpgrade/options", { ipfsServiceId });
    const chosen = options.options.find((o) => o.storeUnit === parsed.data.toStoreUnit);
    if (!chosen)
      return json<ActionData>(
        { kind: "refused", messageKey: "errors:MSG_45010", toStoreUnit: parsed.data.toStoreUnit },
        { status: 400 },
      );
    return json<ActionData>({
      kind: "confirm",
      toStoreUnit: chosen.storeUnit,
      priceDiffCents: chosen.priceDiffCents,
      idempotencyKey: parsed.data.idempotencyKey,
    });
  }
  const result = await unlessRefusedForBills(
    request,
    await api.call("/sys/ipfsBusiness/ipfsUpgrade/create", parsed.data),
    "ipfsUpgrade",
  );
  if (!result.ok)
    return json<ActionData>(
      { kind: "refused", messageKey: result.messageKey, toStoreUnit: parsed.data.toStoreUnit },
      { status: failureStatus(result) },
    );
  return redirectWithFlash(request, upgradeHref(result.data.ipfsUpgradeId), {
    kind: "success",
    key: "ipfs:upgrade.done",
    params: {
      capacity: capacityLabel(result.data.toStoreUnit),
      price: formatUsd(result.data.priceDiffCents, viewer.language),
    },
  });
}

export default function NewIpfsUpgrade() {
  return <NewUpgradePage {...useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}
