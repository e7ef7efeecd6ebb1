const KNOWN_STATUSES = [400, 401, 403, 404, 429, 500, 502, 503, 504];

/** The §8 message of a failed answer: the backend's message key when its body has one, else the HTTP status's. */
export function statusMessageKey(status: number, data: unknown): string {
  if (data && typeof data === "object" && typeof (data as { messageKey?: unknown }).messageKey === "string") {
    return (data as { messageKey: string }).messageKey;
  }
  return KNOWN_STATUSES.includes(status) ? `errors:http.${status}` : "errors:http.generic";
}
