import type { LegalPage } from "#contract/legal-codes.ts";

/** Addresses of the legal and contact texts (docs/decisions/089), for pages and server modules alike. */
export const OPS_LEGAL = "/g/home/operations/LegalTexts";

/** Each page's public address (SPEC §2). */
export const LEGAL_PUBLIC_URL: Record<LegalPage, string> = {
  privacy: "/g/main/privacy",
  privacyStatement: "/g/main/PrivacyStatement",
  agreement: "/g/main/PrivateAgreement",
  contact: "/g/main/contactUs",
};
