import "./setup-env.ts";
import { describe, expect, it, vi } from "vitest";
import { TicketStatus } from "#contract/support-codes.ts";
import type { VueapiResult } from "#app/lib/vueapi.server.ts";
import { thrownResponse as thrown } from "../support/responses.ts";

vi.mock("#backend/index.ts", () => ({ handleVueapi: vi.fn(), startBackend: vi.fn() }));

const { closeConfirming, ticketIdParam, ticketPageAction } = await import("#app/lib/support.server.ts");
const { getFlash } = await import("#app/lib/session.server.ts");

/** The flash message a redirect carries, read back as the next request would. */
async function flashOf(res: Response) {
  const cookie = res.headers.get("Set-Cookie")!.split(";")[0];
  return (await getFlash(new Request("http://portal.test/", { headers: { Cookie: cookie } }))).flash;
}

const ok: VueapiResult<unknown> = { ok: true, data: null };
const PAGE = "http://portal.test/g/home/DeveloperCommunity/TechnicalSupportDetail?ticketId=7";
const HERE = "/g/home/DeveloperCommunity/TechnicalSupportDetail?ticketId=7";

/** The shared action of the ticket pages (user, visitor; docs/decisions/041), with backend calls that record. */
function act(fields: Record<string, string>) {
  const reply = vi.fn(async (_content: string) => ok);
  const close = vi.fn(async () => ok);
  const request = new Request(PAGE, { method: "POST", body: new URLSearchParams(fields) });
  return { reply, close, answer: ticketPageAction(request, HERE, { reply, close }) };
}

describe("a ticket page: reply and close (docs/decisions/041)", () => {
  it("sends a reply and comes back to the page with its flash", async () => {
    const { reply, close, answer } = act({ intent: "reply", content: "Still failing." });
    const res = (await answer) as Response;
    expect(reply).toHaveBeenCalledWith("Still failing.");
    expect(close).not.toHaveBeenCalled();
    expect(res.headers.get("Location")).toBe(HERE);
    expect((await flashOf(res))?.key).toBe("support:detail.sent");
  });

  it("answers an empty reply with the form's errors (400), sending nothing", async () => {
    const { reply, answer } = act({ intent: "reply", content: "" });
    const res = (await answer) as Response;
    expect(res.status).toBe(400);
    expect(reply).not.toHaveBeenCalled();
  });

  it("asks before it closes (the no-JavaScript confirm step), then closes once confirmed", async () => {
    const first = act({ intent: "close" });
    const step = (await first.answer) as Response;
    expect(step.headers.get("Location")).toBe(`${HERE}&confirm=close`);
    expect(first.close).not.toHaveBeenCalled();
    const second = act({ intent: "close", confirmed: "yes" });
    const res = (await second.answer) as Response;
    expect(second.close).toHaveBeenCalledOnce();
    expect(res.headers.get("Location")).toBe(HERE);
    expect((await flashOf(res))?.key).toBe("support:detail.closed");
  });

  it("refuses another intent with a 400", async () => {
    expect((await thrown(act({ intent: "delete" }).answer)).status).toBe(400);
  });

  it("reads the ticket's id (not found without a valid one) and the confirm step's query", async () => {
    expect(ticketIdParam(new URL(PAGE))).toBe(7);
    expect(
      (await thrown(Promise.resolve().then(() => ticketIdParam(new URL("http://p.test/?ticketId=x"))))).status,
    ).toBe(404);
    const asking = new URL(`${PAGE}&confirm=close`);
    expect(closeConfirming(asking, { status: TicketStatus.OPEN })).toBe(true);
    expect(closeConfirming(asking, { status: TicketStatus.CLOSED })).toBe(false);
    expect(closeConfirming(new URL(PAGE), { status: TicketStatus.OPEN })).toBe(false);
  });
});
