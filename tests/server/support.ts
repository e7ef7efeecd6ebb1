import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";

export const root = path.resolve(__dirname, "../..");

export async function freePort(): Promise<number> {
  // A port below the kernel's ephemeral range (ip_local_port_range): one from listen(0) is chosen there, and between
  // this check and the server's own listen, another process's listen(0) or outgoing connection could take it (a
  // started server then died of EADDRINUSE in a full run). Here only another random pick can.
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await bindable(port)) return port;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/* ------------------------------------------------------------------------------------------------
 * A fake /vueapi backend on a real socket, whose next answers can be made to fail in chosen ways.
 * ---------------------------------------------------------------------------------------------- */

export type Fault =
  /** A correct answer. */
  | { kind: "ok" }
  /** A correct answer, but only after `afterMs`. */
  | { kind: "late"; afterMs: number }
  /** Status and headers and the start of the body, then nothing until the portal goes away. */
  | { kind: "stall-body" }
  /** The connection is reset (TCP RST) as soon as the call arrives. */
  | { kind: "reset" }
  /** 200 with a body that is not JSON. */
  | { kind: "malformed" }
  /** An HTTP error status with a body that is not the protocol's (as a proxy in front of it would send). */
  | { kind: "status"; status: number };

export type Call = {
  path: string;
  /** The headers the portal sent with the call. */
  headers: IncomingHttpHeaders;
  /** Resolves with true when the portal closed the connection before the answer was complete. */
  closed: Promise<boolean>;
};

const CITY_NODE = {
  nodeId: 1,
  code: "fake-node",
  name: "Fake City",
  nameZh: "测试城市",
  operator: "Fake operator",
  cloudProvider: "Fake cloud",
  address: "Nowhere 1",
  operatorZh: "测试运营方",
  cloudProviderZh: "测试云",
  addressZh: "无处 1 号",
  availableTps: 100,
  capacityGb: 10,
  peers: 2,
  trafficPricePerGbCents: 12,
  tpsPricePerMonthCents: 150,
  tpsPricePerYearCents: 1500,
  capacityPricePerGbMonthCents: 20,
};

/** The fake's answer to the landing page's own call, /anon/platform/cityNodes (and to any other path). */
const OK_BODY = JSON.stringify({ code: 0, message: "success", data: [CITY_NODE] });
/** The public layout's banner read (/anon/community/activeAnnouncements): no announcement is active. */
const BANNER_PATH = "/anon/community/activeAnnouncements";
const NO_BANNER_BODY = JSON.stringify({ code: 0, message: "success", data: [] });

export async function startFakeVueapi() {
  let fault: Fault = { kind: "ok" };
  const sockets = new Set<Socket>();
  const waiting: { path?: string; notify: (call: Call) => void }[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const answer = (res: ServerResponse, path: string) => {
    if (res.destroyed) return;
    res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" });
    res.end(path.endsWith(BANNER_PATH) ? NO_BANNER_BODY : OK_BODY);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const closed = new Promise<boolean>((resolve) => res.on("close", () => resolve(!res.writableFinished)));
    const call: Call = { path: req.url ?? "", headers: req.headers, closed };
    req.resume();
    req.on("end", () => {
      for (const w of waiting.splice(0)) {
        if (!w.path || call.path.endsWith(w.path)) w.notify(call);
        else waiting.push(w);
      }
      const current = fault;
      switch (current.kind) {
        case "ok":
          return answer(res, call.path);
        case "late": {
          const timer = setTimeout(() => {
            timers.delete(timer);
            answer(res, call.path);
          }, current.afterMs);
          timers.add(timer);
          return;
        }
        case "stall-body":
          res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" });
          res.write(OK_BODY.slice(0, 40));
          return;
        case "reset":
          req.socket.resetAndDestroy();
          return;
        case "malformed":
          res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" });
          res.end('{"code":0,"message":"success","data":[{');
          return;
        case "status":
          res.writeHead(current.status, { "Content-Type": "text/html; charset=utf-8" });
          res.end(`<html><body>upstream says ${current.status}</body></html>`);
          return;
      }
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address !== "object") throw new Error("fake vueapi has no address");

  return {
    url: `http://127.0.0.1:${address.port}/vueapi`,
    setFault(next: Fault) {
      fault = next;
    },
    /** The next call the fake receives (with a path: the next call to a path ending with it). */
    nextCall(path?: string): Promise<Call> {
      return new Promise((resolve) => waiting.push({ path, notify: resolve }));
    },
    async close() {
      timers.forEach(clearTimeout);
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type FakeVueapi = Awaited<ReturnType<typeof startFakeVueapi>>;

/* ------------------------------------------------------------------------------------------------
 * The real built server (server/index.js with build/index.js) as a child process.
 * ---------------------------------------------------------------------------------------------- */

export async function startPortal(env: Record<string, string>) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-server-"));
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  delete inherited.VUEAPI_URL;
  const child: ChildProcess = spawn(process.execPath, [path.join(root, "server/index.js"), "build/index.js"], {
    cwd: root,
    env: {
      ...inherited,
      PORT: String(port),
      FABRIC_GATEWAY_PORT: "0",
      HOST: "127.0.0.1",
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      SESSION_SECRET: "server-test-secret",
      JOBS_INTERVAL_MS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      resolve(code);
    }),
  );

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${output}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server not ready in 60 s: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    base,
    child,
    exited,
    /** What the process wrote to stdout and stderr so far. */
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
      child.kill("SIGTERM");
      await exited;
      clearTimeout(force);
    },
  };
}

export type Portal = Awaited<ReturnType<typeof startPortal>>;

/**
 * The built server in front of a fake backend, for one test file: started before its tests, stopped after
 * them. The returned object holds both once they run.
 */
export function portalWithFakeBackend(env: Record<string, string> = {}) {
  const started = {} as { fake: FakeVueapi; portal: Portal };
  beforeAll(async () => {
    started.fake = await startFakeVueapi();
    started.portal = await startPortal({ VUEAPI_URL: started.fake.url, ...env });
  });
  afterAll(async () => {
    await started.portal?.stop();
    await started.fake?.close();
  });
  return started;
}

/* ------------------------------------------------------------------------------------------------
 * Raw HTTP (fetch hides Content-Encoding work and cannot send some requests).
 * ---------------------------------------------------------------------------------------------- */

export type RawResponse = { status: number; headers: IncomingHttpHeaders; body: Buffer };

export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/* ------------------------------------------------------------------------------------------------
 * Page checks.
 * ---------------------------------------------------------------------------------------------- */

const errorsEn = JSON.parse(readFileSync(path.join(root, "locales/en/errors.json"), "utf8")) as {
  http: Record<string, string>;
  empty: Record<string, string>;
};

/** The English text of an `errors:` key as it appears in the page's HTML. */
export function errorText(key: string): string {
  const [group, name] = key.replace(/^errors:/, "").split(".");
  const text = (errorsEn as unknown as Record<string, Record<string, string>>)[group]?.[name];
  if (!text) throw new Error(`no English text for ${key}`);
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");
}

/** The nonce of a Content-Security-Policy header's script-src. */
export function cspNonce(csp: string | null | undefined): string | undefined {
  return csp?.match(/script-src [^;]*'nonce-([^']+)'/)?.[1];
}

/** The opening tags of every <script> element of an HTML page. */
export function scriptTags(html: string): string[] {
  return html.match(/<script\b[^>]*>/g) ?? [];
}
