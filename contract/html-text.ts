/**
 * Plain text made safe for a place that reads HTML (a server-written page, a feed's `type="html"` title): the
 * five characters HTML gives meaning to become entities, so the text shows as written and never as markup.
 */
export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
