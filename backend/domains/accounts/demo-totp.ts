/**
 * DEMO DATA ONLY (docs/decisions/022, README "Demo accounts"): the fixed TOTP secret of the demo operator
 * `demooperator`, seeded only with the demo accounts, so that people trying the demo and the test suites
 * (e2e/support.ts, tests/backend) can compute its codes. Add it to an authenticator app as a time-based
 * key (SHA-1, 6 digits, 30 s). A real operator enrols a random secret of their own. This module imports
 * nothing, so the suites can read it.
 */
export const DEMO_OPERATOR_TOTP_SECRET = "DEMOOPERATORTOTPKEYFORDEMODATA23";

/** The demo accounts that have a fixed second factor, by username. */
export const DEMO_TOTP_SECRETS: Readonly<Record<string, string>> = { demooperator: DEMO_OPERATOR_TOTP_SECRET };
