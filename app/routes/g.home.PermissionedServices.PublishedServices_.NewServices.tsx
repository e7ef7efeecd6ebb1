import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { CityNode } from "#contract/platform.ts";
import {
  allowedSteps,
  isStepAllowed,
  stepsFor,
  type AppState,
  type Draft,
  type WizardStep,
} from "#contract/service-wizard.ts";
import { NewServicesPage } from "#app/components/services/wizard/NewServicesPage.tsx";
import { wizardUrl } from "#app/lib/wizard-urls.ts";
import { badRequest, requireUser } from "#app/lib/api.server.ts";
import { redirectKeepingFlash } from "#app/lib/session.server.ts";
import {
  addAttachment,
  addFunction,
  addPackage,
  addRole,
  advance,
  confirmingItem,
  deleteItem,
  guardNewDraft,
  marketParam,
  readWizardPost,
  readWizardQuery,
  saveBasic,
  saveCertificate,
  recalculateNodes,
  saveNodes,
  submit,
  wizardApi,
  wizardLoadFailure,
} from "#app/lib/wizard.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";
import { requirePermission } from "#app/lib/team.server.ts";

/**
 * SPEC §2 PublishedServices/NewServices: the service publish wizard (appState add | mod | update | mod2).
 * The step is in the URL and the draft in the backend (house habit 7): every step is POST → the step's
 * Zod schema → the backend saves → redirect, so it works without JavaScript, survives a reload and resumes
 * on another device (docs/decisions/011). The trailing underscore keeps it out of the list page's layout.
 * Its server side (query, unpaid-bill guard, one function per form) is app/lib/wizard.server.ts.
 */
export const handle = {
  i18n: ["wizard", "market"],
  breadcrumb: [
    { key: "wizard:breadcrumb.services" },
    { key: "wizard:breadcrumb.published", to: "/g/home/PermissionedServices/PublishedServices" },
    { key: "wizard:title.add" },
  ],
};
export const clientLoader = withNamespaces(handle);

const TITLE_KEYS: Record<AppState, string> = {
  add: "newService",
  mod: "editServiceBasic",
  update: "upgradeService",
  mod2: "editService",
};
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const root = matches.find((m) => m.id === "root")?.data as
    { titles?: Record<string, string>; brand?: string } | undefined;
  const title = root?.titles?.[TITLE_KEYS[data?.appState ?? "add"]];
  const brand = root?.brand ?? "BSN Portal";
  return [{ title: title ? `${title} · ${brand}` : brand }];
};

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  await requirePermission(request, viewer, "services");
  const { appState, appId, step: asked, rawStep, confirm } = readWizardQuery(request);
  await guardNewDraft(request, viewer, appState, appId);
  const api = wizardApi(request, viewer, appState);
  let draft: Draft | null = null;
  let source: Draft | null = null;
  let fabricConnected = false;
  if (appId) {
    const result = await api.call("/sys/chainAppInfo/wizard/draft", { appState, appId });
    if (!result.ok) throw wizardLoadFailure(result);
    ({ draft, source, fabricConnected } = result.data);
  }
  const steps = stepsFor(appState);
  // The furthest step the draft reached; mod is the basic step alone.
  const furthest: WizardStep | null = appState === "mod" ? "basic" : (draft?.wizardStep ?? null);
  const allowed = allowedSteps(appState, furthest);
  if (rawStep !== null && !asked) throw badRequest();
  // Without a step (or with one not reached yet) the wizard resumes where the publisher was.
  const resumeAt = allowed[allowed.length - 1];
  if (draft?.editable !== false && (!asked || !isStepAllowed(appState, furthest, asked))) {
    // The step goes into the URL; a flash that led here (e.g. "Pay and continue") is kept for that page.
    const marketId = marketParam(request, appState, appId);
    throw await redirectKeepingFlash(
      request,
      wizardUrl(appState, appId, resumeAt, marketId ? { market: String(marketId) } : {}),
    );
  }
  const step = asked ?? resumeAt;
  const needsCatalogue = step === "nodes";
  const catalogue: CityNode[] = needsCatalogue ? await api.load("/anon/platform/cityNodes", {}) : [];
  const confirming = confirmingItem(draft, confirm);
  // A new service started from the chaincode market: the package named (a withdrawn or unknown one is refused).
  const marketId = marketParam(request, appState, appId);
  const market = marketId
    ? await api
        .load("/sys/market/detail", { marketPackageId: marketId })
        .then((m) => ({ packageId: m.marketPackageId, name: m.name, language: m.language }))
    : null;
  return json({
    appState,
    appId,
    step,
    steps,
    allowed,
    draft,
    source,
    catalogue,
    confirming,
    market,
    fabricConnected,
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const post = await readWizardPost(request, viewer);
  switch (post.intent) {
    case "saveBasic":
      return saveBasic(post);
    case "addAttachment":
      return addAttachment(post);
    case "addPackage":
      return addPackage(post);
    case "addFunction":
      return addFunction(post);
    case "addRole":
      return addRole(post);
    case "saveNodes":
      return saveNodes(post);
    case "recalculateNodes":
      return recalculateNodes(post);
    case "saveCertificate":
      return saveCertificate(post);
    case "advance":
      return advance(post);
    case "delete":
      return deleteItem(post);
    case "submit":
      return submit(post);
  }
}

export default function NewServices() {
  return <NewServicesPage {...useLoaderData<typeof loader>()} />;
}
