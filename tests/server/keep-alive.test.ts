import { Agent, request } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startFakeVueapi, startPortal, type FakeVueapi, type Portal } from "./support.ts";

/**
 * An idle keep-alive connection outlives Node's default 5 s (docs/decisions/100): a client, or a load balancer with
 * a 60 s idle timeout, that reuses its socket after a pause gets its answer on that same socket, not ECONNRESET.
 */

let fake: FakeVueapi;
let portal: Portal;

beforeAll(async () => {
  fake = await startFakeVueapi();
  portal = await startPortal({ VUEAPI_URL: fake.url });
}, 60_000);
afterAll(async () => {
  await portal?.stop();
  await fake?.close();
});

function get(agent: Agent, url: string): Promise<{ status: number; port: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      const port = res.socket.localPort ?? 0;
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, port }));
    });
    req.on("error", reject);
    req.end();
  });
}

it("keeps an idle connection open past Node's 5 s default and answers on it", async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let closedByServer = false;
  try {
    const first = await get(agent, `${portal.base}/healthz`);
    expect(first.status).toBe(200);
    const [socket] = Object.values(agent.freeSockets).flat();
    socket?.once("close", () => (closedByServer = true));
    await new Promise((resolve) => setTimeout(resolve, 6_500));
    expect(closedByServer).toBe(false);
    const second = await get(agent, `${portal.base}/healthz`);
    expect(second.status).toBe(200);
    // The same socket (same local port): the server kept the connection.
    expect(second.port).toBe(first.port);
  } finally {
    agent.destroy();
  }
}, 20_000);
