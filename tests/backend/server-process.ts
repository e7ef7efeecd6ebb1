import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

const root = path.resolve(__dirname, "../..");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Starts the real built app (server/index.js + build/index.js: portal and embedded /vueapi backend) on a free
 * port of 127.0.0.1, NODE_ENV test, with the variables `env` adds; resolves once it answers /healthz.
 */
export async function startBuiltServer(env: Record<string, string>): Promise<{ child: ChildProcess; baseUrl: string }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(root, "server/index.js"), "build/index.js"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "test", PUBLIC_URL: baseUrl, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return { child, baseUrl };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("server did not become ready in 120 s");
    await new Promise((r) => setTimeout(r, 250));
  }
}
