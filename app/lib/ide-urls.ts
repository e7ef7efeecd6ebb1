/** The URLs of the IDE pages (docs/decisions/044). */
export const IDE_SERVICES = "/g/home/IDEServices";
export const portalHref = (workspaceId: number, more: Record<string, string | number> = {}) => {
  const q = new URLSearchParams({
    workspaceId: String(workspaceId),
    ...Object.fromEntries(Object.entries(more).map(([k, v]) => [k, String(v)])),
  });
  return `/ide/portal?${q}`;
};

/** The portal's URL with `set` changed (and the one-shot parameters dropped). */
export function portalUrl(url: URL, set: Record<string, string | number | null>) {
  const q = new URLSearchParams(url.searchParams);
  for (const name of ["confirmDelete", "index", "_data"]) q.delete(name);
  for (const [name, value] of Object.entries(set)) {
    if (value === null) q.delete(name);
    else q.set(name, String(value));
  }
  return `${url.pathname}?${q}`;
}
