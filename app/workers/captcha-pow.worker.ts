import { solvePow } from "#app/lib/pow-solver.ts";

/**
 * The page's proof-of-work solver (docs/decisions/061), in a Web Worker so the page stays responsive. Bundled
 * apart from the Remix build by scripts/build-workers.mjs into public/build/workers/ (its name hashed, listed in
 * manifest.json there). Answers { number }, or null (no solution: the page keeps the image captcha).
 */
type Challenge = { algorithm: string; challenge: string; maxnumber: number; salt: string };

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Challenge>) => void) | null;
  postMessage(message: { number: number } | null): void;
};

scope.onmessage = (event) => {
  const { algorithm, challenge, maxnumber, salt } = event.data;
  const number = algorithm === "SHA-256" ? solvePow(challenge, salt, maxnumber) : null;
  scope.postMessage(number === null ? null : { number });
};
