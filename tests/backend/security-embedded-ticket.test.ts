import { createHash, createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import {
  callAt,
  loginAt,
  registerAndActivate,
  startedDataDir,
  startServer,
  stopServer,
  type Server,
} from "./server-process.ts";

// Once part of security-matrix.test.ts. Its own file since it starts a server of its own on the embedded default,
// whatever the stage's database: the matrix, which only calls the suite's server, then runs on PostgreSQL only, and
// this file on PGlite only (scripts/backend-stage-excludes.mjs, docs/decisions/097).

/**
 * Issue 29 item 8: on the embedded default (no SESSION_SECRET), main keyed the participation apply ticket from
 * "bsn-embedded:" + DATA_DIR's path, which anyone who knows or guesses the path can compute, so a ticket could be
 * forged to see and apply to a private service without an invitation. The ticket is now a signed link
 * (backend/kit/signed-link.ts, docs/decisions/050) keyed from DATA_DIR/session-secret. This server is the
 * embedded default (tests/backend/server-process.ts removes SESSION_SECRET) on a DATA_DIR of the test's own.
 */
describe("a participation apply ticket forged on the embedded default", () => {
  let server: Server | undefined;
  let dataDir: string;
  afterAll(async () => {
    await stopServer(server);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** A ticket as main computed it without SESSION_SECRET: "<expiry>.<HMAC>", keyed from DATA_DIR's path. */
  const oldDerivationTicket = (serverDataDir: string, userId: number, appId: number) => {
    const key = createHash("sha256")
      .update(`bsn-join-ticket:bsn-embedded:${path.resolve(serverDataDir)}`)
      .digest();
    const exp = Math.floor(Date.now() / 1000) + 60 * 60;
    return `${exp}.${createHmac("sha256", key).update(`${userId}.${appId}.${exp}`).digest("base64url").slice(0, 22)}`;
  };

  it("is refused: the private service stays hidden and cannot be applied to; the invitation's own ticket works", async () => {
    // A data directory a server has started on before: its own DATA_DIR path and session-secret.
    dataDir = await startedDataDir(mkdtempSync(path.join(tmpdir(), "bsn-forged-ticket-")));
    server = await startServer(dataDir, { TEST_FIXTURES: "1" });
    const pub = (await loginAt(server, await registerAndActivate(server))).data.token;
    const stranger = (await loginAt(server, await registerAndActivate(server))).data as {
      token: string;
      user: { userId: number };
    };
    const svc = await callAt(server, "/test/services", { verState: 25, nodeCount: 2 }, pub);
    expect(svc.code, JSON.stringify(svc)).toBe(0);
    const { appId, appVerId } = svc.data as { appId: number; appVerId: number };
    const view = (ticket?: string) => callAt(server!, "/sys/chainAppInfo/view", { appId, ticket }, stranger.token);
    const roles = (ticket?: string) =>
      callAt(
        server!,
        "/sys/chainAppInfo/queryRolesForAppList",
        { page: { pageSize: 999, pageIndex: 1, condition: { appId, ticket } } },
        stranger.token,
      );

    // The service is private: without a ticket the stranger sees nothing of it.
    expect((await view()).message).toBe(Msg.NOT_FOUND);

    const forged = oldDerivationTicket(dataDir, stranger.user.userId, appId);
    expect((await view(forged)).message).toBe(Msg.NOT_FOUND);
    expect((await roles(forged)).message).toBe(Msg.NOT_FOUND);
    const applied = await callAt(
      server,
      "/sys/chainAppInfo/joinApp",
      { appId, ticket: forged, roleId: 1, cityNodeIds: [1], certificateMode: 1 },
      stranger.token,
    );
    expect(applied.message).toBe(Msg.TOKENS_INVALID);

    // The invitation's ticket (the way in) still opens the service to the stranger.
    const invite = await callAt(server, "/sys/chainAppInfo/invite", { appVerId, language: "en" }, pub);
    expect(invite.code, JSON.stringify(invite)).toBe(0);
    const query = new URL(`http://x${(invite.data as { path: string }).path}`).searchParams;
    const joinInfo = await callAt(
      server,
      "/sys/chainAppInfo/applyJoinApp",
      { appId, token: query.get("c"), expiry: query.get("d"), language: query.get("e") },
      stranger.token,
    );
    expect(joinInfo.code, JSON.stringify(joinInfo)).toBe(0);
    const ticket = (joinInfo.data as { ticket: string }).ticket;
    const opened = await view(ticket);
    expect(opened.code, JSON.stringify(opened)).toBe(0);
    expect(opened.data.canApply).toBe(true);
    expect((await roles(ticket)).code).toBe(0);
  }, 180_000);
});
