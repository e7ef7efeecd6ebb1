import type { AppState, WizardStep } from "#contract/service-wizard.ts";

/** The wizard's URL: appState, appId and the step live in the query (SPEC §2, house habit 7). */
export function wizardUrl(
  appState: AppState,
  appId: number | null,
  step?: WizardStep | null,
  extra: Record<string, string> = {},
) {
  const q = new URLSearchParams({ appState });
  if (appId) q.set("appId", String(appId));
  if (step) q.set("step", step);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return `/g/home/PermissionedServices/PublishedServices/NewServices?${q}`;
}

/** The cover of the caller's own service, from the wizard's cover route (the file id makes a new cover a new URL). */
export function coverUrl(appId: number, fileId: number) {
  return `/g/home/PermissionedServices/PublishedServices/NewServices/cover?${new URLSearchParams({ appId: String(appId), v: String(fileId) })}`;
}
