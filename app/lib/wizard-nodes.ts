import { NODE_DEFAULTS } from "#contract/service-cost.ts";

/**
 * A chosen node's inputs that did not come with the form take NODE_DEFAULTS (docs/decisions/029): without
 * JavaScript a row's inputs stay disabled until "Recalculate" shows it chosen, so a row ticked just before
 * "Recalculate" or "Save" arrives without them. What was typed is never replaced.
 */
export function fillNodeDefaults(formData: FormData): FormData {
  const filled = new FormData();
  for (const [key, value] of formData) filled.append(key, value);
  for (const [key, value] of formData) {
    const row = key.match(/^nodes\[(\d{1,3})\]\.selected$/);
    if (!row || value !== "on") continue;
    for (const [field, fallback] of Object.entries(NODE_DEFAULTS)) {
      const name = `nodes[${row[1]}].${field}`;
      if (!formData.has(name)) filled.set(name, fallback);
    }
  }
  return filled;
}
