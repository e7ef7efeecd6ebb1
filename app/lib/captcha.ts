/** The proof-of-work challenge a page with JavaScript solves in a Web Worker (docs/decisions/061). */
export type PowChallenge = { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };

/** The `captchaKey` that marks the `captcha` field as a proof-of-work solution rather than an image's answer. */
export const POW_CAPTCHA_KEY = "pow";

/**
 * A captcha to show, or (image null) the message of why there is none: too many asked for from this address.
 * `pow` and `workerUrl` (the solver's script; null when the build has none) let a page with JavaScript pass
 * without typing; the image stays for pages without it and when the worker fails.
 */
export type CaptchaData =
  | { captchaKey: string; image: string; unavailableKey?: undefined; pow: PowChallenge; workerUrl: string | null }
  | { captchaKey: ""; image: null; unavailableKey: string; pow: null; workerUrl: null };

/** What a solution is submitted as: altcha's payload, base64 JSON. */
export function powSolution(pow: PowChallenge, number: number): string {
  const { algorithm, challenge, salt, signature } = pow;
  return btoa(JSON.stringify({ algorithm, challenge, number, salt, signature }));
}
