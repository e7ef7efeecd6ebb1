import { solveChallenge } from "altcha-lib";

/**
 * The browser's proof-of-work solver (docs/decisions/061), run in a Web Worker so the page stays responsive:
 * altcha-lib's own solveChallenge on the challenge the page was given. Bundled apart from the Remix build by
 * scripts/build-workers.mjs into public/build/workers/ (its name hashed, listed in manifest.json there).
 */
type Challenge = { algorithm: string; challenge: string; maxnumber: number; salt: string };

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Challenge>) => void) | null;
  postMessage(message: { number: number } | null): void;
};

scope.onmessage = async (event) => {
  const { algorithm, challenge, maxnumber, salt } = event.data;
  const solution = await solveChallenge(challenge, salt, algorithm, maxnumber).promise;
  scope.postMessage(solution ? { number: solution.number } : null);
};
