/** Shared bits of the IDE pages (docs/decisions/044). */
export const IDE_SERVICES = "/g/home/IDEServices";
export const portalHref = (workspaceId: number, more: Record<string, string | number> = {}) => {
  const q = new URLSearchParams({ workspaceId: String(workspaceId), ...Object.fromEntries(Object.entries(more).map(([k, v]) => [k, String(v)])) });
  return `/ide/portal?${q}`;
};
