/** The operations page of the manual (docs/decisions/042), for pages and server modules alike. */
export const OPS_DOCS = "/g/home/operations/Documentation";
