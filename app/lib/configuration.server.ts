import { parseWithZod } from "@conform-to/zod/v4";
import { json } from "@remix-run/node";
import { upgradeFormSchema, type UpgradeForm } from "#contract/configuration.ts";
import type { Api } from "./api.server.ts";
import { replyWithFailure } from "./forms.server.ts";
import { intentOf } from "./intents.server.ts";
import { redirectWithFlash } from "./session.server.ts";
import { unlessRefusedForBills } from "./unpaid-guard.server.ts";

/** The chosen rows of ConfigurationNew's form as the backend's configuration. */
export function chosenNodes(form: UpgradeForm) {
  return form.nodes
    .filter((n) => n.selected === "on")
    .map((n) => ({
      cityNodeId: Number(n.cityNodeId),
      tps: Number(n.tps),
      capacityGb: Number(n.capacityGb),
      peers: Number(n.peers),
    }));
}

/**
 * ConfigurationNew's action: "quote" asks the backend for the price and shows it (nothing is saved),
 * "submit" creates the request and opens its detail. A refusal (§5, the change, unpaid bills) comes back
 * on the form with everything typed kept; unpaid bills leave for home's blocked panel (docs/decisions/027).
 */
export async function upgradeAction(request: Request, api: Api, formData: FormData) {
  const intent = intentOf(formData, ["quote", "submit"] as const);
  const submission = parseWithZod(formData, { schema: upgradeFormSchema });
  if (submission.status !== "success") return json({ result: submission.reply(), quote: null }, { status: 400 });
  const payload = {
    appId: Number(submission.value.appId),
    upgradeType: (submission.value.upgradeType === "1" ? 1 : 2) as 1 | 2,
    nodes: chosenNodes(submission.value),
  };
  if (intent === "quote") {
    const quoted = await api.call("/sys/configUpgrade/quote", payload);
    if (!quoted.ok) return json({ result: replyWithFailure(submission, quoted), quote: null }, { status: 400 });
    return json({ result: submission.reply(), quote: quoted.data });
  }
  const created = await unlessRefusedForBills(
    request,
    await api.call("/sys/configUpgrade/create", payload),
    "configUpgrade",
  );
  if (!created.ok) return json({ result: replyWithFailure(submission, created), quote: null }, { status: 400 });
  return redirectWithFlash(request, `/g/home/ConfigurationDetail?upgradeId=${created.data.upgradeId}`, {
    kind: "success",
    key: "configuration:flash.requested",
  });
}
