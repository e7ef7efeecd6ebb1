import { and, eq, gt } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResponseCode } from "#contract/envelope.ts";
import { Msg } from "#contract/messages.ts";
import { auditLog } from "#backend/db/tables.ts";
import {
  callVueapi,
  downloadedBytes,
  refusedDownload,
  insertedUser,
  openVueapi,
  sessionOf,
  uploadVueapi,
  type Vueapi,
} from "./in-process.ts";
import { demoCover } from "#backend/domains/store/demo.ts";
import { uniqueName } from "./client.ts";
import { okVia } from "../support/envelope.ts";
import { mailsIn } from "../support/outbox.ts";

// Issue 15, the community's content (docs/decisions/040): news and events with sign-ups, search in both
// languages, release notes, announcements and partners, over the /vueapi paths, on PGlite or the PostgreSQL of
// DATABASE_URL. The service's clock is moved to pass a sign-up deadline.

const DAY = 86_400_000;
let clock = Date.now();
let service: Vueapi;
let operator: string;
const users: { id: number; token: string; name: string }[] = [];

const ok = okVia((p: string, body: object, as?: string) => callVueapi(service, p, body, as));
const local = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 16);

async function newPost(fields: Record<string, unknown>, publish = true): Promise<number> {
  const { postId } = await ok("/sys/ops/community/savePost", fields, operator);
  if (publish) await ok("/sys/ops/community/publishPost", { postId, decision: "publish" }, operator);
  return postId;
}
const eventFields = (capacity: number, title = `Workshop ${uniqueName("e")}`) => ({
  kind: "event",
  titleEn: title,
  titleZh: `研讨会 ${title}`,
  bodyEn: "Bring a laptop.",
  bodyZh: "请带上笔记本电脑。",
  startsAt: local(clock + 10 * DAY),
  signupDeadline: local(clock + 5 * DAY),
  location: "Shanghai",
  capacity,
});
const signup = (eventId: number, u: { token: string; name: string }, lang = "en") =>
  callVueapi(
    service,
    "/sys/devGame/saveSingUpInfo",
    { eventId, name: u.name, email: `${u.name}@example.com`, userLanguage: lang },
    u.token,
  );

const mailsTo = (address: string) => mailsIn(service.services.env.dataDir, address);

beforeAll(async () => {
  service = await openVueapi(
    "community",
    { DATABASE_URL: process.env.DATABASE_URL, PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret", DEMO: "0" },
    () => new Date(clock),
  );
  operator = await sessionOf(service, await insertedUser(service, uniqueName("cop"), "operator"));
  for (let i = 0; i < 4; i++) {
    const name = uniqueName("cu");
    const id = await insertedUser(service, name);
    users.push({ id, name, token: await sessionOf(service, id) });
  }
}, 120_000);
afterAll(async () => {
  await service?.close();
});

describe("news and events (issue 15)", () => {
  it("an unpublished item is invisible to users; published, it is listed and its detail shows", async () => {
    const title = `Hidden ${uniqueName("h")}`;
    const postId = await newPost({ kind: "news", titleEn: title, bodyEn: "Soon." }, false);
    const listed = async () =>
      (await ok("/api/devGame/h5queryAllList", { pageSize: 50 })).page.rows.map((r: any) => r.postId);
    expect(await listed()).not.toContain(postId);
    expect((await callVueapi(service, "/sys/devGame/detail", { eventId: postId }, users[0].token)).message).toBe(
      Msg.NOT_FOUND,
    );
    await ok("/sys/ops/community/publishPost", { postId, decision: "publish" }, operator);
    expect(await listed()).toContain(postId);
    const detail = await ok("/sys/devGame/detail", { eventId: postId }, users[0].token);
    expect(detail).toMatchObject({ titleEn: title, titleZh: "", seatsLeft: null, mySignup: null });
    await ok("/sys/ops/community/publishPost", { postId, decision: "unpublish" }, operator);
    expect(await listed()).not.toContain(postId);
  });

  it("filters by type and by upcoming or past events", async () => {
    const upcoming = await newPost(eventFields(5));
    const past = await newPost({
      ...eventFields(5),
      startsAt: local(clock - 2 * DAY),
      signupDeadline: local(clock - 3 * DAY),
    });
    const news = await newPost({ kind: "news", titleEn: `News ${uniqueName("n")}` });
    const ids = async (body: object) =>
      (await ok("/api/devGame/h5queryAllList", { pageSize: 50, ...body })).page.rows.map((r: any) => r.postId);
    expect(await ids({ type: "news" })).toContain(news);
    expect(await ids({ type: "news" })).not.toContain(upcoming);
    expect(await ids({ when: "upcoming" })).toEqual(expect.arrayContaining([upcoming]));
    expect(await ids({ when: "upcoming" })).not.toContain(past);
    expect(await ids({ when: "past" })).toContain(past);
    const paged = await ok("/api/devGame/h5queryAllList", { pageSize: 1, pageIndex: 2 });
    expect(paged.page.rows).toHaveLength(1);
    expect(paged.page.total).toBeGreaterThanOrEqual(3);
  });

  it("search finds a Chinese item with a Chinese query and an English one with an English query, published only", async () => {
    const zh = await newPost({ kind: "news", titleZh: "城市节点网关上线", bodyZh: "区块链存储服务现已开放。" });
    const en = await newPost({
      kind: "news",
      titleEn: "Gateway throughput doubled",
      bodyEn: "Measured on every city node.",
    });
    const hidden = await newPost(
      { kind: "news", titleZh: "未发布的网关新闻", titleEn: "Unpublished gateway throughput" },
      false,
    );
    const found = async (q: string) =>
      (await ok("/api/devGame/h5queryAllList", { q, pageSize: 50 })).page.rows.map((r: any) => r.postId);
    expect(await found("网关")).toContain(zh);
    expect(await found("区块链")).toContain(zh);
    expect(await found("throughput")).toContain(en);
    expect(await found("throughput")).not.toContain(zh);
    expect(await found("网关")).not.toContain(hidden);
    expect(await found("throughput")).not.toContain(hidden);
    expect(await found("nothingmatchesthisword")).toEqual([]);
  });

  it("signs a user up once, mails a translated confirmation, and respects capacity and deadline", async () => {
    const eventId = await newPost(eventFields(2));
    const [a, b, c] = users;
    const first = await signup(eventId, a, "zh-CN");
    expect(first.code, JSON.stringify(first)).toBe(0);
    expect(first.data.seatsLeft).toBe(1);
    const mail = mailsTo(`${a.name}@example.com`).at(-1);
    expect(mail?.subject).toContain("报名成功");
    expect(mail?.text).toContain(`News_EventsDetail?eventId=${eventId}`);
    // once per user
    expect((await signup(eventId, a)).message).toBe(Msg.COMMUNITY_ALREADY_SIGNED_UP);
    expect((await ok("/sys/devGame/detail", { eventId }, a.token)).mySignup).not.toBeNull();
    expect((await signup(eventId, b)).code).toBe(0);
    expect(mailsTo(`${b.name}@example.com`).at(-1)?.subject).toContain("You are signed up");
    // full
    const full = await signup(eventId, c);
    expect(full.message).toBe(Msg.COMMUNITY_EVENT_FULL);
    expect(mailsTo(`${c.name}@example.com`)).toHaveLength(0);
    expect(await ok("/sys/devGame/detail", { eventId }, c.token)).toMatchObject({
      seatsLeft: 0,
      signups: 2,
      mySignup: null,
    });
    // the capacity cannot drop below the sign-ups
    const lowered = await callVueapi(
      service,
      "/sys/ops/community/savePost",
      { ...eventFields(1), postId: eventId },
      operator,
    );
    expect(lowered.message).toBe(Msg.COMMUNITY_CAPACITY_BELOW_SIGNUPS);
    // the operator sees both sign-ups
    const list = await ok("/sys/ops/community/signups", { eventId, pageSize: 50 }, operator);
    expect(list.page.rows.map((r: any) => r.userName)).toEqual([a.name, b.name]);
  });

  it("refuses a sign-up after the deadline, and for news or an unknown event", async () => {
    // The deadline an hour ahead (a session outlives that move of the clock).
    const eventId = await newPost({ ...eventFields(10), signupDeadline: local(clock + 3_600_000) });
    const newsId = await newPost({ kind: "news", titleEn: "Not an event" });
    expect((await signup(newsId, users[3])).message).toBe(Msg.NOT_FOUND);
    expect((await signup(999_999, users[3])).message).toBe(Msg.NOT_FOUND);
    const saved = clock;
    clock += 2 * 3_600_000;
    try {
      expect((await signup(eventId, users[3])).message).toBe(Msg.COMMUNITY_SIGNUP_CLOSED);
    } finally {
      clock = saved;
    }
    expect((await signup(eventId, users[3])).code).toBe(0);
  });

  it("checks the operators' form on the server", async () => {
    const bad = async (body: object, field: string) => {
      const res = await callVueapi(service, "/sys/ops/community/savePost", body, operator);
      expect(res.message, JSON.stringify(res)).toBe(Msg.INVALID_PARAMS);
      expect(Object.keys(res.data.fieldErrors)).toContain(field);
    };
    await bad({ kind: "news", bodyEn: "x" }, "titleEn");
    await bad({ ...eventFields(5), signupDeadline: local(clock + 20 * DAY) }, "signupDeadline");
    await bad({ ...eventFields(5), capacity: 0 }, "capacity");
    await bad({ kind: "release", titleEn: "No version" }, "version");
    await bad(
      { kind: "announcement", titleEn: "Backwards", activeFrom: local(clock + DAY), activeTo: local(clock) },
      "activeTo",
    );
    const newsId = await newPost({ kind: "news", titleEn: "Kind stays" }, false);
    expect(
      (await callVueapi(service, "/sys/ops/community/savePost", { ...eventFields(3), postId: newsId }, operator))
        .message,
    ).toBe(Msg.COMMUNITY_KIND_CHANGED);
  });
});

describe("release notes, announcements and partners (issue 15)", () => {
  it("lists published release notes newest first", async () => {
    const older = await newPost({ kind: "release", titleEn: "Older", version: "1.0.0" });
    clock += 1000;
    const newer = await newPost({ kind: "release", titleEn: "Newer", titleZh: "更新", version: "1.1.0" });
    const draft = await newPost({ kind: "release", titleEn: "Draft", version: "9.9.9" }, false);
    const rows = (await ok("/api/devGame/releaseNotes", { pageSize: 50 })).page.rows.map((r: any) => r.postId);
    expect(rows.indexOf(newer)).toBeLessThan(rows.indexOf(older));
    expect(rows).not.toContain(draft);
  });

  it("the banner lists a published announcement at once and forgets it when withdrawn", async () => {
    const active = () => ok("/anon/community/activeAnnouncements", {});
    const before = await active(); // kept by the constant-data kit from here on
    const postId = await newPost({
      kind: "announcement",
      titleEn: "Banner now",
      titleZh: "横幅",
      activeFrom: local(clock - DAY),
      activeTo: local(clock + DAY),
    });
    expect((await active()).map((a: any) => a.postId)).toEqual([...before.map((a: any) => a.postId), postId]);
    expect(await ok("/anon/community/announcement", { postId })).toMatchObject({ titleEn: "Banner now" });
    expect((await ok("/anon/community/announcements", { pageSize: 50 })).page.rows.map((r: any) => r.postId)).toContain(
      postId,
    );
    await ok("/sys/ops/community/publishPost", { postId, decision: "unpublish" }, operator);
    expect((await active()).map((a: any) => a.postId)).not.toContain(postId);
    expect((await callVueapi(service, "/anon/community/announcement", { postId })).message).toBe(Msg.NOT_FOUND);
  });

  it("keeps partners in their order, with an uploaded logo", async () => {
    const png = demoCover([10, 20, 30], [200, 210, 220]);
    const up = await uploadVueapi(service, "cover", "logo.png", png, operator);
    expect(up.code, JSON.stringify(up)).toBe(0);
    const second = await ok(
      "/sys/ops/community/savePartner",
      { partner: { nameEn: "Second", nameZh: "第二", sortOrder: 20, link: "https://example.org/" } },
      operator,
    );
    const first = await ok(
      "/sys/ops/community/savePartner",
      { partner: { nameZh: "第一", sortOrder: 10 }, logo: { uploadId: up.data.uploadId } },
      operator,
    );
    const listed = await ok("/anon/community/partners", {});
    const ids = listed.map((p: any) => p.partnerId);
    expect(ids.indexOf(first.partnerId)).toBeLessThan(ids.indexOf(second.partnerId));
    expect(listed.find((p: any) => p.partnerId === first.partnerId)).toMatchObject({
      nameEn: "",
      nameZh: "第一",
      hasLogo: true,
    });
    expect(await downloadedBytes(service, "partner-logo", { partnerId: first.partnerId })).toEqual(png);
    expect((await refusedDownload(service, "partner-logo", { partnerId: second.partnerId })).message).toBe(
      Msg.NOT_FOUND,
    );
    const bad = await callVueapi(
      service,
      "/sys/ops/community/savePartner",
      { partner: { nameEn: "Bad link", sortOrder: 1, link: "javascript:alert(1)" } },
      operator,
    );
    expect(bad.message).toBe(Msg.INVALID_PARAMS);
    await ok("/sys/ops/community/deletePartner", { partnerId: second.partnerId }, operator);
    expect((await ok("/anon/community/partners", {})).map((p: any) => p.partnerId)).not.toContain(second.partnerId);
  });
});

describe("operators only, and audited (issue 15)", () => {
  it("refuses every operator write to a user and writes one audit entry per operator write", async () => {
    const user = users[0].token;
    for (const [p, body] of [
      ["/sys/ops/community/savePost", { kind: "news", titleEn: "Not mine" }],
      ["/sys/ops/community/publishPost", { postId: 1, decision: "publish" }],
      ["/sys/ops/community/deletePost", { postId: 1 }],
      ["/sys/ops/community/savePartner", { partner: { nameEn: "x", sortOrder: 1 } }],
      ["/sys/ops/community/deletePartner", { partnerId: 1 }],
      ["/sys/ops/community/signups", { eventId: 1 }],
    ] as const) {
      expect((await callVueapi(service, p, body, user)).code, p).toBe(ResponseCode.NO_PERMISSION);
    }
    const [{ id: before }] = await service.services.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .orderBy(auditLog.id)
      .then((r) => (r.length ? [r[r.length - 1]] : [{ id: 0 }]));
    const postId = await newPost({ kind: "news", titleEn: "Audited" });
    await ok("/sys/ops/community/deletePost", { postId }, operator);
    const entries = await service.services.db
      .select()
      .from(auditLog)
      .where(and(gt(auditLog.id, before), eq(auditLog.targetType, "communityPost")))
      .orderBy(auditLog.id);
    expect(entries.map((e) => [e.action, e.decision])).toEqual([
      ["community.save", "save"],
      ["community.publish", "publish"],
      ["community.delete", "delete"],
    ]);
    expect(entries[0].details).toMatchObject({ titleEn: "Audited", outcome: { postId } });
    expect(entries[2].targetId).toBe(String(postId));
  });
});
