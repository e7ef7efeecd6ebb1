import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import {
  accessAllowed,
  applySchema,
  AUDIT_STATES,
  auditDecisionSchema,
  detailHidden,
  listStatusOf,
  orderExpired,
} from "#contract/participation.ts";
import { JOIN_ACTORS, JOIN_EVENTS, JOIN_MACHINE, joinTransition } from "#backend/domains/participation/machine.ts";

describe("the participation audit state machine (docs/decisions/013)", () => {
  const cases = AUDIT_STATES.flatMap((from) =>
    JOIN_EVENTS.flatMap((event) => JOIN_ACTORS.map((actor) => ({ from, event, actor }))),
  );

  it.each(cases)("$event by $actor from $from", ({ from, event, actor }) => {
    const rule = JOIN_MACHINE.find((r) => r.event === event && r.from === from && r.actor === actor);
    const anyActor = JOIN_MACHINE.some((r) => r.event === event && r.from === from);
    const ctx = {
      comments: "ok",
      orderCents: event === "order" || event === "reorder" ? 100 : 0,
      orderExpired: event === "reorder",
    };
    const result = joinTransition(from, event, actor, ctx);
    if (rule) expect(result).toEqual({ ok: true, to: rule.to });
    else expect(result).toEqual({ ok: false, messageKey: anyActor ? "MSG_39006" : "MSG_39005" });
  });

  it("guards: comments to reject, order only when something must be ordered, nothing for a disabled participant", () => {
    expect(joinTransition(0, "publisherReject", "publisher", {})).toEqual({ ok: false, messageKey: "MSG_30014" });
    expect(joinTransition(0, "publisherReject", "publisher", { comments: "  " })).toEqual({
      ok: false,
      messageKey: "MSG_30014",
    });
    expect(joinTransition(1, "operatorReject", "operator", {})).toEqual({ ok: false, messageKey: "MSG_30014" });
    expect(joinTransition(3, "order", "system", { orderCents: 0 }).ok).toBe(false);
    expect(joinTransition(3, "skipOrder", "system", { orderCents: 1 }).ok).toBe(false);
    expect(joinTransition(3, "skipOrder", "system", { orderCents: 0 })).toEqual({ ok: true, to: 10 });
    expect(joinTransition(13, "confirm", "participant", { disabled: true })).toEqual({
      ok: false,
      messageKey: "MSG_39005",
    });
  });

  it("guards: an order is re-issued only when its bill expired and something must be ordered", () => {
    expect(joinTransition(5, "reorder", "participant", { orderExpired: true, orderCents: 500 })).toEqual({
      ok: true,
      to: 5,
    });
    expect(joinTransition(5, "reorder", "participant", { orderExpired: false, orderCents: 500 })).toEqual({
      ok: false,
      messageKey: "MSG_39005",
    });
    expect(joinTransition(5, "reorder", "participant", { orderExpired: true, orderCents: 0 })).toEqual({
      ok: false,
      messageKey: "MSG_39005",
    });
    expect(joinTransition(5, "reorder", "system", { orderExpired: true, orderCents: 500 })).toEqual({
      ok: false,
      messageKey: "MSG_39006",
    });
    expect(joinTransition(10, "reorder", "participant", { orderExpired: true, orderCents: 500 })).toEqual({
      ok: false,
      messageKey: "MSG_39005",
    });
    expect(
      joinTransition(5, "reorder", "participant", { orderExpired: true, orderCents: 500, disabled: true }),
    ).toEqual({ ok: false, messageKey: "MSG_39005" });
  });

  it("every state but the rejections and 15 has a way on", () => {
    for (const s of AUDIT_STATES) {
      const out = JOIN_MACHINE.filter((r) => r.from === s);
      if (s === 2 || s === 4 || s === 15) expect(out).toEqual([]);
      else expect(out.length).toBeGreaterThan(0);
    }
  });
});

describe("an expired node order (docs/decisions/013 Expired orders)", () => {
  const now = new Date("2026-08-04T00:00:00Z");
  const before = "2026-08-03T23:59:59.999Z";
  const after = "2026-08-04T00:00:00.001Z";
  it("is one the expiry job marked, or an unpaid or failed one past its deadline", () => {
    expect(orderExpired({ payState: 10, deadline: after }, now)).toBe(true);
    expect(orderExpired({ payState: 1, deadline: before }, now)).toBe(true);
    expect(orderExpired({ payState: 5, deadline: before }, now)).toBe(true);
    expect(orderExpired({ payState: 1, deadline: now }, now)).toBe(true);
    expect(orderExpired({ payState: 1, deadline: after }, now)).toBe(false);
    expect(orderExpired({ payState: 5, deadline: new Date(after) }, now)).toBe(false);
  });
  it("is never a paid, refunded or in-payment bill, whatever its deadline", () => {
    for (const payState of [2, 15, 20, 25]) expect(orderExpired({ payState, deadline: before }, now)).toBe(false);
  });
});

describe("what a participant sees (§4)", () => {
  it("participated-list statuses", () => {
    expect(listStatusOf({ auditState: 0, verState: 25, disabled: false })).toBe("reviewing");
    expect(listStatusOf({ auditState: 5, verState: 25, disabled: false })).toBe("reviewing");
    expect(listStatusOf({ auditState: 2, verState: 25, disabled: false })).toBe("rejected");
    expect(listStatusOf({ auditState: 4, verState: 25, disabled: false })).toBe("rejected");
    expect(listStatusOf({ auditState: 13, verState: 25, disabled: false })).toBe("toConfirm");
    expect(listStatusOf({ auditState: 15, verState: 25, disabled: false })).toBe("confirmed");
    expect(listStatusOf({ auditState: 15, verState: 30, disabled: false })).toBe("deactivated");
    expect(listStatusOf({ auditState: 15, verState: 40, disabled: false })).toBe("deactivated");
    expect(listStatusOf({ auditState: 15, verState: 25, disabled: true })).toBe("deactivated");
    expect(listStatusOf({ auditState: 15, verState: 35, disabled: false })).toBe("uninstalled");
  });

  it("access when approved and verState not 30 or 35; detail hidden when rejected", () => {
    expect(accessAllowed({ auditState: 15, verState: 25, disabled: false })).toBe(true);
    expect(accessAllowed({ auditState: 13, verState: 40, disabled: false })).toBe(true);
    expect(accessAllowed({ auditState: 15, verState: 30, disabled: false })).toBe(false);
    expect(accessAllowed({ auditState: 15, verState: 35, disabled: false })).toBe(false);
    expect(accessAllowed({ auditState: 10, verState: 25, disabled: false })).toBe(false);
    expect(accessAllowed({ auditState: 15, verState: 25, disabled: true })).toBe(false);
    expect([0, 1, 2, 3, 4, 5, 10, 13, 15].filter(detailHidden)).toEqual([2, 4]);
  });
});

describe("the apply form schema (one for the portal and the backend)", () => {
  const form = (entries: [string, string][]) => {
    const fd = new FormData();
    for (const [k, v] of entries) fd.append(k, v);
    const submission = parseWithZod(fd, { schema: applySchema });
    return {
      status: submission.status,
      value: submission.status === "success" ? submission.value : undefined,
      error: submission.status === "error" ? submission.error : undefined,
    };
  };
  it("one checked node is a list of one; none is an error", () => {
    const one = form([
      ["appId", "1"],
      ["roleId", "2"],
      ["cityNodeIds", "3"],
      ["certificateMode", "1"],
    ]);
    expect(one.status).toBe("success");
    expect(one.value?.cityNodeIds).toEqual([3]);
    const two = form([
      ["appId", "1"],
      ["roleId", "2"],
      ["cityNodeIds", "3"],
      ["cityNodeIds", "4"],
      ["certificateMode", "1"],
    ]);
    expect(two.value?.cityNodeIds).toEqual([3, 4]);
    const none = form([
      ["appId", "1"],
      ["certificateMode", "1"],
    ]);
    expect(none.status).toBe("error");
    expect(none.error?.cityNodeIds).toEqual(["participation:validation.nodes"]);
    expect(none.error?.roleId).toEqual(["participation:validation.role"]);
  });
  it("§5: key trust password 6-20 letters and digits, confirmed; upload mode needs key, data and signature", () => {
    const base: [string, string][] = [
      ["appId", "1"],
      ["roleId", "2"],
      ["cityNodeIds", "3"],
    ];
    expect(
      form([...base, ["certificateMode", "2"], ["password", "abc12"], ["confirmPassword", "abc12"]]).error?.password,
    ).toEqual(["validation.shortSecret.format"]);
    expect(
      form([...base, ["certificateMode", "2"], ["password", "abc123"], ["confirmPassword", "abc12x"]]).error
        ?.confirmPassword,
    ).toEqual(["validation.confirmMismatch"]);
    expect(
      form([...base, ["certificateMode", "2"], ["password", "abc123"], ["confirmPassword", "abc123"]]).status,
    ).toBe("success");
    expect(Object.keys(form([...base, ["certificateMode", "3"]]).error ?? {}).sort()).toEqual([
      "publicKey",
      "signature",
      "testData",
    ]);
  });
  it("rejecting needs comments", () => {
    expect(auditDecisionSchema.safeParse({ appJoinAuditId: 1, decision: "reject" }).success).toBe(false);
    expect(auditDecisionSchema.safeParse({ appJoinAuditId: 1, decision: "reject", comments: "why" }).success).toBe(
      true,
    );
    expect(auditDecisionSchema.safeParse({ appJoinAuditId: 1, decision: "approve" }).success).toBe(true);
  });
});
