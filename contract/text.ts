/**
 * Text the database cannot keep (docs/decisions/024): PostgreSQL refuses the NUL character in text and
 * JSON, and a lone UTF-16 surrogate (half of a pair, which JSON can carry as "\ud800") has no UTF-8 form.
 * Both sides check every request with `refusedTextFields`: the backend's router before any handler runs,
 * the portal's request layer before it sends, so such text is a 400 with a field error everywhere.
 */

/** The i18n key (validation namespace) of the field error. */
export const REFUSED_TEXT_KEY = "validation.text.unstorable";

// Without the `u` flag the pattern works on UTF-16 code units, so it sees the halves of a pair.
const REFUSED = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the database can store `text`. */
export function isStorableText(text: string): boolean {
  return !REFUSED.test(text);
}

/** At most this many fields are named; one is enough to refuse the request. */
const MAX_FIELDS = 20;

/**
 * The fields of `value` (dotted paths, as the router names Zod issues: "payload.userName", "items.0.name")
 * whose text or key the database refuses, in document order; [] when there are none. Walks with its own
 * stack, so a deeply nested body cannot overflow the call stack.
 */
export function refusedTextFields(value: unknown): string[] {
  const found: string[] = [];
  // `key`: the item's own key, checked when the item is reached, so fields are named in document order.
  const stack: { value: unknown; path: string; key: string }[] = [{ value, path: "", key: "" }];
  while (stack.length > 0 && found.length < MAX_FIELDS) {
    const item = stack.pop()!;
    if (!isStorableText(item.key)) {
      // A refused key names its field once, whatever its value holds.
      found.push(item.path);
    } else if (typeof item.value === "string") {
      if (!isStorableText(item.value)) found.push(item.path || "_form");
    } else if (item.value && typeof item.value === "object") {
      const entries = Array.isArray(item.value)
        ? item.value.map((v, i) => [String(i), v] as const)
        : Object.entries(item.value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        stack.push({ value: child, path: item.path ? `${item.path}.${key}` : key, key });
      }
    }
  }
  return found;
}

/** The field errors of a request holding refused text (`data.fieldErrors` of a MSG_10001 answer). */
export function refusedTextErrors(fields: readonly string[]): Record<string, string[]> {
  return Object.fromEntries(fields.map((field) => [field, [REFUSED_TEXT_KEY]]));
}
