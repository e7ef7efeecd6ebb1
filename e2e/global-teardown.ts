import { mkdirSync, writeFileSync } from "node:fs";

/**
 * After the last spec, before the web server stops: the height of each chain the run left, from /healthz, printed and
 * kept in reports/e2e-chains.json (beside, not in, reports/test-summary/, whose every JSON file is a test report). It is the history a new holder of the chains would replay without a
 * snapshot (docs/decisions/103). A server that does not answer is said, not failed: the specs have passed or not.
 */
export default async function globalTeardown() {
  try {
    const res = await fetch(`http://127.0.0.1:${process.env.E2E_PORT}/healthz`, {
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await res.json()) as { chain?: { chains?: Record<string, { height: number }> } };
    const heights = Object.fromEntries(Object.entries(body.chain?.chains ?? {}).map(([name, c]) => [name, c.height]));
    const total = Object.values(heights).reduce((sum, h) => sum + h, 0);
    mkdirSync("reports", { recursive: true });
    writeFileSync("reports/e2e-chains.json", JSON.stringify({ total, heights }, null, 2));
    console.log(
      `The run's chains: ${Object.keys(heights).length}, ${total} blocks in all (the highest ${Math.max(0, ...Object.values(heights))})`,
    );
  } catch (error) {
    console.log(`The run's chains: not read (${(error as Error).message})`);
  }
}
