import { describe, expect, it } from "vitest";
import { addSupportMinutes, isSupportOpen, nextOpening, supportNotice } from "#contract/support-codes.ts";
import { resendWaitSeconds } from "#backend/domains/support/rules.ts";

// SPEC §9 support hours, weekdays 8:00-17:30 in UTC+8 (docs/decisions/041); a reply within 4 hours of support time.
// Each row: the instant (UTC) with its UTC+8 reading, open or not, the next opening when closed, the expected reply.
const rows = [
  { at: "2026-11-24T03:00:00Z", local: "Tue 11:00", open: true, opensAt: null, replyBy: "2026-11-24T07:00:00.000Z" },
  {
    at: "2026-11-24T08:00:00Z",
    local: "Tue 16:00 (1:30 left, 2:30 on Wed)",
    open: true,
    opensAt: null,
    replyBy: "2026-11-25T02:30:00.000Z",
  },
  {
    at: "2026-11-23T23:59:00Z",
    local: "Tue 07:59",
    open: false,
    opensAt: "2026-11-24T00:00:00.000Z",
    replyBy: "2026-11-24T04:00:00.000Z",
  },
  {
    at: "2026-11-24T09:30:00Z",
    local: "Tue 17:30, closing",
    open: false,
    opensAt: "2026-11-25T00:00:00.000Z",
    replyBy: "2026-11-25T04:00:00.000Z",
  },
  { at: "2026-11-24T09:29:00Z", local: "Tue 17:29", open: true, opensAt: null, replyBy: "2026-11-25T03:59:00.000Z" },
  {
    at: "2026-11-27T09:00:00Z",
    local: "Fri 17:00 (over the weekend)",
    open: true,
    opensAt: null,
    replyBy: "2026-11-30T03:30:00.000Z",
  },
  {
    at: "2026-11-28T02:00:00Z",
    local: "Sat 10:00",
    open: false,
    opensAt: "2026-11-30T00:00:00.000Z",
    replyBy: "2026-11-30T04:00:00.000Z",
  },
  {
    at: "2026-11-29T15:30:00Z",
    local: "Sun 23:30",
    open: false,
    opensAt: "2026-11-30T00:00:00.000Z",
    replyBy: "2026-11-30T04:00:00.000Z",
  },
  {
    at: "2026-11-30T00:00:00Z",
    local: "Mon 08:00, opening",
    open: true,
    opensAt: null,
    replyBy: "2026-11-30T04:00:00.000Z",
  },
  {
    at: "2026-11-27T16:30:00Z",
    local: "Sat 00:30 (Friday evening in UTC)",
    open: false,
    opensAt: "2026-11-30T00:00:00.000Z",
    replyBy: "2026-11-30T04:00:00.000Z",
  },
];

describe("support hours (SPEC §9, UTC+8)", () => {
  it.each(rows)("$local", ({ at, open, opensAt, replyBy }) => {
    expect(supportNotice(new Date(at))).toEqual({ open, opensAt, replyBy });
    expect(isSupportOpen(new Date(at))).toBe(open);
  });

  it("counts only support time, across days and weekends", () => {
    expect(addSupportMinutes(new Date("2026-11-24T03:00:00Z"), 0).toISOString()).toBe("2026-11-24T03:00:00.000Z");
    // A whole working day (9.5 h) from Friday's opening ends Friday at closing; one minute more is Monday 8:01.
    expect(addSupportMinutes(new Date("2026-11-27T00:00:00Z"), 570).toISOString()).toBe("2026-11-27T09:30:00.000Z");
    expect(addSupportMinutes(new Date("2026-11-27T00:00:00Z"), 571).toISOString()).toBe("2026-11-30T00:01:00.000Z");
    expect(nextOpening(new Date("2026-11-24T03:00:00Z")).toISOString()).toBe("2026-11-25T00:00:00.000Z");
  });
});

describe("the newsletter's resend wait (SPEC §9: 60 s)", () => {
  const sent = new Date("2026-11-24T03:00:00Z");
  it.each([
    { after: null, wait: 0 },
    { after: 0, wait: 60 },
    { after: 1, wait: 60 },
    { after: 20_000, wait: 40 },
    { after: 59_001, wait: 1 },
    { after: 60_000, wait: 0 },
    { after: 3_600_000, wait: 0 },
  ])("$after ms after the last mail: wait $wait s", ({ after, wait }) => {
    expect(resendWaitSeconds(after === null ? null : sent, new Date(sent.getTime() + (after ?? 0)))).toBe(wait);
  });
});
