import "./setup-env.ts";
import { describe, expect, it, vi } from "vitest";
import { addresseeSchema } from "#contract/invoices.ts";
import { remittanceMachine } from "#contract/payment-machines.ts";
import { remittanceReviewSchema } from "#contract/payments.ts";
import type { VueapiResult } from "#app/lib/vueapi.server.ts";
import { thrownResponse as thrown } from "../support/responses.ts";

vi.mock("#backend/index.ts", () => ({ handleVueapi: vi.fn(), startBackend: vi.fn() }));

const { decideQueueItem, queueDecision } = await import("#app/lib/operations-review.server.ts");
const { savedRecordsAction } = await import("#app/lib/saved-records.server.ts");
const { getFlash } = await import("#app/lib/session.server.ts");

type Call = (value: unknown) => Promise<VueapiResult<unknown>>;
const ok: VueapiResult<unknown> = { ok: true, data: null };
/** A backend call that answers `result`, recording what it was given. */
const answering = (result: VueapiResult<unknown>) => vi.fn<Call>(async () => result);
const refused = (messageKey: string, fieldErrors: Record<string, string[]> = {}): VueapiResult<unknown> => ({
  ok: false,
  messageKey,
  fieldErrors,
  silent: false,
  code: 1,
  status: 200,
});

function post(url: string, fields: Record<string, string>) {
  return new Request(url, { method: "POST", body: new URLSearchParams(fields) });
}

/** The flash message a redirect carries, read back as the next request would. */
async function flashOf(res: Response) {
  const cookie = res.headers.get("Set-Cookie")!.split(";")[0];
  return (await getFlash(new Request("http://portal.test/", { headers: { Cookie: cookie } }))).flash;
}

describe("operations queues: one decision on one record (docs/decisions/005, 007)", () => {
  const QUEUE = "http://portal.test/g/home/operations/Remittances?status=all";
  const decide = (fields: Record<string, string>, submit = answering(ok)) => ({
    submit,
    answer: decideQueueItem(post(QUEUE, { intent: "review", ...fields }), {
      idName: "paymentNo",
      confirm: true,
      machine: remittanceMachine,
      decisions: {
        review: queueDecision({
          schema: remittanceReviewSchema,
          decide: submit,
          flash: (review) => `payments:ops.remittances.${review.decision}`,
        }),
      },
    }),
  });

  it("asks to confirm first, with what was chosen and typed, and sends nothing", async () => {
    const { submit, answer } = decide({ paymentNo: "RC1", decision: "confirm", comments: "Seen on the statement" });
    const res = await answer;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      kind: "confirm",
      no: "RC1",
      decision: "confirm",
      comments: "Seen on the statement",
    });
    expect(submit).not.toHaveBeenCalled();
  });

  it("refuses a rejection without comments at its row", async () => {
    const { submit, answer } = decide({ paymentNo: "RC1", decision: "reject", comments: "", confirmed: "yes" });
    const res = await answer;
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      kind: "error",
      no: "RC1",
      comments: "",
      messageKey: "payments:validation.commentsRequired",
    });
    expect(submit).not.toHaveBeenCalled();
  });

  it("sends a confirmed decision and goes back to the same queue with its flash message", async () => {
    const { submit, answer } = decide({
      paymentNo: "RC1",
      decision: "reject",
      comments: "No such transfer",
      confirmed: "yes",
    });
    const res = await answer;
    expect(submit).toHaveBeenCalledWith({ paymentNo: "RC1", decision: "reject", comments: "No such transfer" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/g/home/operations/Remittances?status=all");
    expect(await flashOf(res)).toEqual({
      kind: "success",
      key: "payments:ops.remittances.reject",
      params: { no: "RC1" },
    });
  });

  it("shows the backend's refusal at the row with the comments kept", async () => {
    const submit = answering(refused("errors:MSG_30014", { comments: ["errors:MSG_30014"] }));
    const res = await decide({ paymentNo: "RC1", decision: "confirm", comments: "late", confirmed: "yes" }, submit)
      .answer;
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ kind: "error", no: "RC1", comments: "late", messageKey: "errors:MSG_30014" });
  });

  it("answers 400 to an unknown decision", async () => {
    const res = await thrown(decide({ paymentNo: "RC1", decision: "shred", confirmed: "yes" }).answer);
    expect(res.status).toBe(400);
  });

  it("answers 400 to an unknown intent, and sends nothing", async () => {
    const submit = answering(ok);
    const answer = decideQueueItem(post(QUEUE, { intent: "shred", paymentNo: "RC1", decision: "confirm" }), {
      idName: "paymentNo",
      confirm: true,
      machine: remittanceMachine,
      decisions: { review: queueDecision({ schema: remittanceReviewSchema, decide: submit, flash: "done" }) },
    });
    expect((await thrown(answer)).status).toBe(400);
    expect(submit).not.toHaveBeenCalled();
  });
});

describe("saved records: save, update, delete (contacts, invoice titles and addresses)", () => {
  const PAGE = "http://portal.test/g/home/userCenter/Invoices/Addresses";
  const back = (value: FormDataEntryValue | null) =>
    value === "/g/home/userCenter/Invoices/Add?step=confirm" ? value : null;
  const act = (fields: Record<string, string>, calls = { save: answering(ok), remove: answering(ok) }) => ({
    ...calls,
    answer: savedRecordsAction(post(PAGE, fields), {
      schema: addresseeSchema,
      idName: "addresseeId",
      listPath: "/g/home/userCenter/Invoices/Addresses",
      back,
      flash: { added: "added", updated: "updated", deleted: "deleted" },
      save: calls.save,
      remove: calls.remove,
    }),
  });
  const address = { name: "Li Lei", mobile: "13800138000", location: "Beijing", address: "1 Chang'an Avenue" };

  it("adds a record and names it added; updates one that carries its id", async () => {
    const added = act({ intent: "save", ...address });
    const res = await added.answer;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/g/home/userCenter/Invoices/Addresses");
    expect((await flashOf(res))?.key).toBe("added");
    expect(added.save.mock.calls[0][0]).toMatchObject(address);

    const updated = await act({ intent: "save", addresseeId: "9", ...address }).answer;
    expect((await flashOf(updated))?.key).toBe("updated");
  });

  it("goes back to the page the record was added from, only if it is an allowed one", async () => {
    expect(
      (
        await act({ intent: "save", back: "/g/home/userCenter/Invoices/Add?step=confirm", ...address }).answer
      ).headers.get("Location"),
    ).toBe("/g/home/userCenter/Invoices/Add?step=confirm");
    expect(
      (await act({ intent: "save", back: "https://elsewhere.example/", ...address }).answer).headers.get("Location"),
    ).toBe("/g/home/userCenter/Invoices/Addresses");
  });

  it("gives a refused form back with what was typed and the backend's field errors", async () => {
    const invalid = act({ intent: "save", ...address, mobile: "abc" });
    const res = await invalid.answer;
    expect(res.status).toBe(400);
    const { result } = await res.json();
    expect(result.initialValue).toMatchObject({ name: "Li Lei", mobile: "abc" });
    expect(Object.keys(result.error ?? {})).toContain("mobile");
    expect(invalid.save).not.toHaveBeenCalled();

    const calls = {
      save: answering(refused("errors:MSG_10001", { name: ["validation.tooLong"] })),
      remove: answering(ok),
    };
    const { result: refusedResult } = await (await act({ intent: "save", ...address }, calls).answer).json();
    expect(refusedResult.error).toMatchObject({ name: ["validation.tooLong"] });
  });

  it("deletes the record the form names, and refuses an id that is not one", async () => {
    const deleted = act({ intent: "delete", addresseeId: "12" });
    const res = await deleted.answer;
    expect(deleted.remove).toHaveBeenCalledWith(12);
    expect((await flashOf(res))?.key).toBe("deleted");
    for (const id of ["", "0", "-1", "1.5", "x"]) {
      const bad = act({ intent: "delete", addresseeId: id });
      expect((await thrown(bad.answer)).status).toBe(400);
      expect(bad.remove).not.toHaveBeenCalled();
    }
  });

  it("answers 400 to an unknown intent", async () => {
    expect((await thrown(act({ intent: "archive", ...address }).answer)).status).toBe(400);
  });
});
