import { Secret, TOTP } from "otpauth";
import { DEMO_TOTP_SECRETS } from "#backend/domains/accounts/demo-totp.ts";

/**
 * The operators' second step for the test suites (docs/decisions/022), with the library the backend uses
 * (otpauth). A code opens one login: the backend accepts the steps either side of now, each only once and
 * only later than the last one used, so a suite that logs the same operator in several times takes the
 * earliest step still open and, when all three are used, waits for the next one (real clock only).
 */
export const PERIOD_MS = 30_000;
const REUSED = "MSG_21003";

/** The documented demo secret of a demo operator (backend/domains/accounts/demo-totp.ts), if it has one. */
export function demoTotpSecret(userName: string): string | undefined {
  return DEMO_TOTP_SECRETS[userName.toLowerCase()];
}

export const stepOf = (at: number) => Math.floor(at / PERIOD_MS);

/** The 6-digit code of a base32 secret at a step. */
export function totpAt(secret: string, step: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: step * PERIOD_MS });
}

/**
 * Gives codes of `secret` to `submit` until one is accepted: the steps now-1, now and now+1 in that order,
 * skipping those the backend says were used; then, with a real clock, the next steps as they come.
 * `submit` answers the envelope's message ("" or "success" when accepted).
 */
export async function passSecondFactor(
  secret: string,
  submit: (code: string) => Promise<{ code: number; message: string }>,
  clock: () => number = Date.now,
  realClock = true,
  /** Called before waiting for the next step (a suite may give its test that much more time). */
  onWait: (ms: number) => void = () => undefined,
) {
  const tried = new Set<number>();
  const deadline = Date.now() + 4 * PERIOD_MS;
  for (;;) {
    const now = stepOf(clock());
    let stale = false;
    for (const step of [now - 1, now, now + 1]) {
      if (tried.has(step)) continue;
      // On a loaded machine a step can leave the drift window while earlier codes were being sent: skip it.
      if (step < stepOf(clock()) - 1) {
        stale = true;
        continue;
      }
      tried.add(step);
      const answer = await submit(totpAt(secret, step));
      if (answer.code === 0) return;
      if (answer.message === REUSED) continue;
      // The code left the window while it was on its way (a wrong code, counted by the backend): take the next.
      if (realClock && step < stepOf(clock()) - 1) {
        stale = true;
        continue;
      }
      throw new Error(`the second factor was refused: ${JSON.stringify(answer)}`);
    }
    if (stale && stepOf(clock()) + 1 > now + 1) continue;
    if (!realClock || Date.now() > deadline) throw new Error("every code of the drift window was already used");
    const wait = (stepOf(clock()) + 1) * PERIOD_MS - clock() + 50;
    onWait(wait);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
