import { zipSync } from "fflate";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { SubscriberStatus, TicketStatus } from "#contract/support-codes.ts";
import { UPLOAD_KINDS } from "#contract/uploads.ts";
import { auditLog } from "#backend/db/tables.ts";
import { newsletterIssues, newsletterSubscribers, supportTickets } from "#backend/domains/support/tables.ts";
import { NEWSLETTER_BATCH } from "#backend/domains/support/jobs.ts";
import {
  callVueapi,
  downloadedBytes,
  insertedUser,
  openVueapi,
  ownDatabase,
  refusedDownload,
  sessionOf,
  uploadVueapi,
  type Vueapi,
} from "./in-process.ts";
import { uniqueName } from "./client.ts";
import { okVia } from "../support/envelope.ts";
import { mailsIn } from "../support/outbox.ts";

// Issue 15, technical support and the newsletter (docs/decisions/041), over the /vueapi paths in this process on
// PGlite (or a database of its own on the PostgreSQL of DATABASE_URL): every rule of SPEC §5 "Support ticket" and §9, the ticket machine,
// the mails of the outbox, the operators' audited writes, and the limits of the anonymous forms.

const CAPTCHA = "SUPPORT1";
let service: Vueapi;
let clock = new Date("2026-11-24T03:00:00Z"); // a Tuesday, 11:00 in UTC+8
let user: string;
let other: string;
let operator: string;
let userEmail: string;
let ids: { user: number; operator: number };

const mailsTo = (address: string) => mailsIn(service.services.env.dataDir, address);

async function call(p: string, body: object, as?: string, language = "en") {
  return callVueapi(service, p, { userLanguage: language, ...body }, as);
}
const ok = okVia(call);
async function captcha(s: Vueapi = service) {
  return { captchaKey: (await callVueapi(s, "/anon/captcha/create", {})).data.captchaKey as string, captcha: CAPTCHA };
}
const png = () =>
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
    Buffer.alloc(200, 1),
  ]);

beforeAll(async () => {
  service = await openVueapi(
    "support",
    {
      // A database of its own on PostgreSQL: the mails are written by the job that sends them into the outbox of
      // the process that takes it, and on the run's shared database the test server's job loop may take it first.
      DATABASE_URL: await ownDatabase(process.env.DATABASE_URL),
      PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
      DEMO: "0",
      TEST_CAPTCHA: CAPTCHA,
      JOBS_INTERVAL_MS: "0",
    },
    () => clock,
  );
  const userName = uniqueName("sup");
  userEmail = `${userName}@example.com`;
  ids = {
    user: await insertedUser(service, userName),
    operator: await insertedUser(service, uniqueName("ops"), "operator"),
  };
  user = await sessionOf(service, ids.user);
  other = await sessionOf(service, await insertedUser(service, uniqueName("oth")));
  operator = await sessionOf(service, ids.operator);
}, 120_000);
afterAll(async () => {
  await service?.close();
});

describe("support tickets (SPEC §5 Support ticket)", () => {
  it("takes a question of at most 500 characters and a valid contact email or mobile", async () => {
    const long = await call(
      "/sys/technicalSupport/insertTech",
      { question: "x".repeat(501), contactEmail: userEmail },
      user,
    );
    expect(long).toMatchObject({ code: 1, message: Msg.INVALID_PARAMS });
    expect(long.data.fieldErrors.question).toEqual(["support:validation.text.tooLong"]);
    expect(
      (await call("/sys/technicalSupport/insertTech", { question: "", contactEmail: userEmail }, user)).data.fieldErrors
        .question,
    ).toEqual(["validation.required"]);
    expect(
      (await call("/sys/technicalSupport/insertTech", { question: "Help" }, user)).data.fieldErrors.contactEmail,
    ).toEqual(["support:validation.contact.required"]);
    expect(
      (await call("/sys/technicalSupport/insertTech", { question: "Help", contactEmail: "not-an-address" }, user)).data
        .fieldErrors.contactEmail,
    ).toEqual(["validation.email.format"]);
    expect(
      (await call("/sys/technicalSupport/insertTech", { question: "Help", contactMobile: "0123" }, user)).data
        .fieldErrors.contactMobile,
    ).toEqual(["validation.mobile.format"]);
    expect(
      (
        await ok(
          "/sys/technicalSupport/insertTech",
          { question: "y".repeat(500), contactMobile: "+8613800138000" },
          user,
        )
      ).ticketId,
    ).toBeGreaterThan(0);
  });

  it("streams the attachment: at most 60 MB, and only what its name says by its content (PNG, JPEG, PDF, ZIP, text)", async () => {
    expect(UPLOAD_KINDS.support.maxBytes).toBe(60 * 1024 * 1024);
    const tooLarge = await service.handle(
      new Request("http://test.invalid/vueapi/upload/support", {
        method: "POST",
        headers: {
          "Content-Type": "application/octet-stream",
          "X-File-Name": "big.txt",
          Authorization: `Bearer ${user}`,
        },
        body: new ReadableStream({
          pull(controller) {
            controller.enqueue(new Uint8Array(1024 * 1024).fill(0x61));
          },
        }),
        duplex: "half",
      } as RequestInit),
    );
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).data.fieldErrors.file).toEqual(["support:validation.file.tooLarge"]);
    const html = await uploadVueapi(
      service,
      "support",
      "shot.png",
      Buffer.from("<html><script>alert(1)</script></html>"),
      user,
    );
    expect(html).toMatchObject({
      code: 1,
      message: Msg.FILE_TYPE_WRONG,
      data: { fieldErrors: { file: ["support:validation.file.content"] } },
    });
    const exe = await uploadVueapi(service, "support", "tool.exe", Buffer.from("MZ"), user);
    expect(exe.data.fieldErrors.file).toEqual(["support:validation.file.type"]);
    const pdfAsText = await uploadVueapi(
      service,
      "support",
      "notes.txt",
      Buffer.from("%PDF-1.4\n%\xff\xff\n1 0 obj\n", "latin1"),
      user,
    );
    expect(pdfAsText.data.fieldErrors.file).toEqual(["support:validation.file.content"]);
    expect((await uploadVueapi(service, "support", "a.png", png())).code).not.toBe(0); // no session, no upload
    const zip = await uploadVueapi(
      service,
      "support",
      "logs.zip",
      zipSync({ "logs/node.log": Buffer.from("peer started\n") }),
      user,
    );
    expect(zip.code, JSON.stringify(zip)).toBe(0);
  });

  it("keeps the attachment with the ticket, for its owner and operators only; another user's ticket is not found", async () => {
    const uploaded = await uploadVueapi(service, "support", "screen.png", png(), user);
    expect(uploaded.code).toBe(0);
    // Another user cannot claim my upload.
    expect(
      (
        await call(
          "/sys/technicalSupport/insertTech",
          { question: "Stolen", contactEmail: userEmail, file: { uploadId: uploaded.data.uploadId } },
          other,
        )
      ).message,
    ).toBe(Msg.UPLOAD_FAILED);
    const { ticketId } = await ok(
      "/sys/technicalSupport/insertTech",
      { question: "My node does not start", contactEmail: userEmail, file: { uploadId: uploaded.data.uploadId } },
      user,
    );
    const detail = await ok("/sys/technicalSupport/detail", { ticketId }, user);
    expect(detail).toMatchObject({
      status: TicketStatus.OPEN,
      source: "console",
      file: { name: "screen.png", mime: "image/png", size: png().length },
      conversation: [],
    });
    expect(await downloadedBytes(service, "support-attachment", { ticketId }, user)).toEqual(png());
    expect(await downloadedBytes(service, "ops-ticket-attachment", { ticketId }, operator)).toEqual(png());
    for (const p of ["/sys/technicalSupport/detail", "/sys/technicalSupport/close"]) {
      expect((await call(p, { ticketId }, other)).message, p).toBe(Msg.NOT_FOUND);
    }
    expect((await refusedDownload(service, "support-attachment", { ticketId }, other)).message).toBe(Msg.NOT_FOUND);
    expect((await refusedDownload(service, "ops-ticket-attachment", { ticketId }, user)).code).toBe(4);
    expect((await call("/sys/technicalSupport/reply", { ticketId, content: "hi" }, other)).message).toBe(Msg.NOT_FOUND);
    expect((await call("/sys/ops/tickets/list", {}, user)).code).toBe(4);
    expect((await call("/sys/ops/tickets/reply", { ticketId, content: "no" }, user)).code).toBe(4);
    // The used upload cannot be claimed twice.
    expect(
      (
        await call(
          "/sys/technicalSupport/insertTech",
          { question: "Again", contactEmail: userEmail, file: { uploadId: uploaded.data.uploadId } },
          user,
        )
      ).message,
    ).toBe(Msg.UPLOAD_FAILED);
  });

  it("moves open → answered → open → closed; each operator reply is audited and mailed with the conversation's link", async () => {
    const { ticketId } = await ok(
      "/sys/technicalSupport/insertTech",
      { question: "Where is my invoice?", contactEmail: userEmail },
      user,
      "zh-CN",
    );
    const queue = await ok("/sys/ops/tickets/list", { pageSize: 50 }, operator);
    expect(queue.page.rows.find((r: any) => r.ticketId === ticketId)).toMatchObject({
      status: TicketStatus.OPEN,
      contact: userEmail,
    });
    expect((await ok("/sys/ops/queues/waiting", {}, operator)).Tickets).toBeGreaterThan(0);
    const mailsBefore = mailsTo(userEmail).length;

    expect(await ok("/sys/ops/tickets/reply", { ticketId, content: "It is on its way." }, operator)).toEqual({
      status: TicketStatus.ANSWERED,
    });
    const [entry] = await service.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "ticket"), eq(auditLog.targetId, String(ticketId))));
    expect(entry).toMatchObject({ action: "ticket.reply", decision: "reply", path: "/sys/ops/tickets/reply" });
    await service.runJobs();
    const mails = mailsTo(userEmail).slice(mailsBefore);
    expect(mails).toHaveLength(1);
    // In the asker's language, with the reply and the link to the conversation.
    expect(mails[0].subject).toContain(`工单 ${ticketId}`);
    expect(mails[0].text).toContain("It is on its way.");
    expect(mails[0].text).toContain(`/g/home/DeveloperCommunity/TechnicalSupportDetail?ticketId=${ticketId}`);

    expect(await ok("/sys/technicalSupport/reply", { ticketId, content: "Thanks, but which month?" }, user)).toEqual({
      status: TicketStatus.OPEN,
    });
    expect(await ok("/sys/ops/tickets/reply", { ticketId, content: "November." }, operator)).toEqual({
      status: TicketStatus.ANSWERED,
    });
    await service.runJobs();
    expect(mailsTo(userEmail).slice(mailsBefore)).toHaveLength(2);
    const detail = await ok("/sys/technicalSupport/detail", { ticketId }, user);
    expect(detail.conversation.map((m: any) => [m.author, m.content])).toEqual([
      ["operator", "It is on its way."],
      ["user", "Thanks, but which month?"],
      ["operator", "November."],
    ]);
    expect(
      (await ok("/sys/technicalSupport/list", { status: TicketStatus.ANSWERED }, user)).page.rows.map(
        (r: any) => r.ticketId,
      ),
    ).toContain(ticketId);
    expect(
      (await ok("/sys/technicalSupport/list", { status: TicketStatus.OPEN }, user)).page.rows.map(
        (r: any) => r.ticketId,
      ),
    ).not.toContain(ticketId);

    expect(await ok("/sys/technicalSupport/close", { ticketId }, user)).toEqual({ status: TicketStatus.CLOSED });
    expect((await call("/sys/technicalSupport/reply", { ticketId, content: "one more" }, user)).message).toBe(
      Msg.TICKET_NOT_AVAILABLE,
    );
    expect((await call("/sys/ops/tickets/reply", { ticketId, content: "late" }, operator)).message).toBe(
      Msg.TICKET_NOT_AVAILABLE,
    );
    expect((await call("/sys/ops/tickets/close", { ticketId }, operator)).message).toBe(Msg.TICKET_NOT_AVAILABLE);
    // A refused operator write leaves no audit entry.
    const entries = await service.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "ticket"), eq(auditLog.targetId, String(ticketId))));
    expect(entries.map((e) => e.action)).toEqual(["ticket.reply", "ticket.reply"]);
  });

  it("an operator closes a ticket, audited", async () => {
    const { ticketId } = await ok(
      "/sys/technicalSupport/insertTech",
      { question: "Nothing", contactEmail: userEmail },
      user,
    );
    expect(await ok("/sys/ops/tickets/close", { ticketId }, operator)).toEqual({ status: TicketStatus.CLOSED });
    const entries = await service.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "ticket"), eq(auditLog.targetId, String(ticketId))));
    expect(entries.map((e) => [e.action, e.decision])).toEqual([["ticket.close", "close"]]);
  });
});

describe("visitors' tickets (support and contact pages)", () => {
  it("needs the captcha and a contact; mails a private link that opens, answers and closes the ticket", async () => {
    const email = `${uniqueName("vis")}@example.com`;
    const base = { question: "Can I join as a city node?", contactEmail: email, source: "contact" };
    expect(
      (
        await call("/anon/technicalSupport/insertTech", {
          ...base,
          captchaKey: (await captcha()).captchaKey,
          captcha: "WRONG",
        })
      ).message,
    ).toBe(Msg.CAPTCHA_WRONG);
    expect(
      (await call("/anon/technicalSupport/insertTech", { ...base, contactEmail: undefined, ...(await captcha()) })).data
        .fieldErrors.contactEmail,
    ).toEqual(["support:validation.contact.required"]);
    const created = await ok("/anon/technicalSupport/insertTech", { ...base, ...(await captcha()) });
    expect(created.mailed).toBe(true);
    const [mail] = mailsTo(email);
    const key = /supportTicket\?key=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
    expect(key).toBe(created.key);
    const [row] = await service.services.db
      .select()
      .from(supportTickets)
      .where(eq(supportTickets.id, created.ticketId));
    expect(row.keyHash).not.toContain(key); // only its hash and sealed copy are kept
    expect(row.keySealed).not.toContain(key);
    expect(await ok("/anon/technicalSupport/ticket", { key })).toMatchObject({
      ticketId: created.ticketId,
      source: "contact",
      status: TicketStatus.OPEN,
    });
    expect((await call("/anon/technicalSupport/ticket", { key: "A".repeat(43) })).message).toBe(Msg.NOT_FOUND);

    await ok("/sys/ops/tickets/reply", { ticketId: created.ticketId, content: "Yes: write to us." }, operator);
    await service.runJobs();
    const reply = mailsTo(email)[1];
    expect(reply.text).toContain("Yes: write to us.");
    expect(reply.text).toContain(`/g/main/supportTicket?key=${key}`);
    expect(await ok("/anon/technicalSupport/reply", { key, content: "Thank you" })).toEqual({
      status: TicketStatus.OPEN,
    });
    expect(await ok("/anon/technicalSupport/close", { key })).toEqual({ status: TicketStatus.CLOSED });
  });

  it("a visitor with only a mobile number gets the link on the page, no mail", async () => {
    const created = await ok("/anon/technicalSupport/insertTech", {
      question: "Call me",
      contactMobile: "13800138000",
      ...(await captcha()),
    });
    expect(created.mailed).toBe(false);
    expect(await ok("/anon/technicalSupport/ticket", { key: created.key })).toMatchObject({
      contactMobile: "13800138000",
    });
  });
});

describe("the newsletter (SPEC §2 subscribes, §9)", () => {
  it("double opt-in: a confirmation mail with a one-time link; resent at most once a minute", async () => {
    const email = `${uniqueName("news")}@example.com`;
    expect(await ok("/anon/newsletter/subscribe", { email, ...(await captcha()) }, undefined, "zh-CN")).toEqual({
      email,
      alreadyConfirmed: false,
    });
    const [row] = await service.services.db
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, email));
    expect(row.status).toBe(SubscriberStatus.PENDING);
    // Again 20 s later: refused with the wait.
    clock = new Date(clock.getTime() + 20_000);
    const early = await service.handle(
      new Request("http://test.invalid/vueapi/anon/newsletter/subscribe", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email, ...(await captcha()) }),
      }),
    );
    expect(early.status).toBe(429);
    expect(early.headers.get("Retry-After")).toBe("40");
    expect(await early.json()).toMatchObject({
      code: 1,
      message: Msg.NEWSLETTER_RESEND_WAIT,
      data: { retryAfterSeconds: 40 },
    });
    expect(mailsTo(email)).toHaveLength(1);
    clock = new Date(clock.getTime() + 41_000);
    await ok("/anon/newsletter/subscribe", { email, ...(await captcha()) }, undefined, "zh-CN");
    const mails = mailsTo(email);
    expect(mails).toHaveLength(2);
    expect(mails[1].subject).toBe("请确认订阅 BSN 新闻简报");
    const token = (t: string) => /confirm\?token=([A-Za-z0-9_-]+)/.exec(t)![1];
    // The first link was replaced by the second.
    expect((await call("/anon/newsletter/confirm", { token: token(mails[0].text) })).message).toBe(
      Msg.NEWSLETTER_LINK_INVALID,
    );
    expect(await ok("/anon/newsletter/confirm", { token: token(mails[1].text) })).toEqual({ email });
    expect((await call("/anon/newsletter/confirm", { token: token(mails[1].text) })).message).toBe(
      Msg.NEWSLETTER_LINK_INVALID,
    );
    expect(await ok("/anon/newsletter/subscribe", { email, ...(await captcha()) })).toEqual({
      email,
      alreadyConfirmed: true,
    });
    expect(mailsTo(email)).toHaveLength(2);
  });

  it("a confirmation link expires after two days", async () => {
    const email = `${uniqueName("late")}@example.com`;
    await ok("/anon/newsletter/subscribe", { email, ...(await captcha()) });
    clock = new Date(clock.getTime() + 2 * 86_400_000 + 1000);
    const t = /confirm\?token=([A-Za-z0-9_-]+)/.exec(mailsTo(email)[0].text)![1];
    expect((await call("/anon/newsletter/confirm", { token: t })).message).toBe(Msg.NEWSLETTER_LINK_INVALID);
    // Sessions of the clock's new day for the tests after this one.
    user = await sessionOf(service, ids.user);
    operator = await sessionOf(service, ids.operator);
  });

  it("an operator's issue goes to confirmed subscribers only, in their language, each with a working unsubscribe link", async () => {
    const confirmedEn = `${uniqueName("nen")}@example.com`;
    const confirmedZh = `${uniqueName("nzh")}@example.com`;
    const pending = `${uniqueName("npe")}@example.com`;
    for (const [email, language] of [
      [confirmedEn, "en"],
      [confirmedZh, "zh-CN"],
      [pending, "en"],
    ]) {
      await ok("/anon/newsletter/subscribe", { email, ...(await captcha()) }, undefined, language);
      if (email !== pending)
        await ok("/anon/newsletter/confirm", {
          token: /confirm\?token=([A-Za-z0-9_-]+)/.exec(mailsTo(email)[0].text)![1],
        });
    }
    const bad = await call(
      "/sys/ops/newsletter/send",
      { subjectEn: "", subjectZh: "x", bodyEn: "x", bodyZh: "x" },
      operator,
    );
    expect(bad.data.fieldErrors.subjectEn).toEqual(["validation.required"]);
    expect(
      (await call("/sys/ops/newsletter/send", { subjectEn: "a", subjectZh: "b", bodyEn: "c", bodyZh: "d" }, user)).code,
    ).toBe(4);
    const sent = await ok(
      "/sys/ops/newsletter/send",
      {
        subjectEn: "November news",
        subjectZh: "十一月新闻",
        bodyEn: "# Hello\n\n**new** nodes\n\n<script>x()</script>",
        bodyZh: "# 你好\n\n新的**节点**",
      },
      operator,
    );
    const [entry] = await service.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "newsletterIssue"), eq(auditLog.action, "newsletter.send")));
    expect(entry.details.outcome).toEqual(sent);
    await service.runJobs();
    expect(mailsTo(pending)).toHaveLength(1); // the confirmation only
    const en = mailsTo(confirmedEn).at(-1)!;
    const zh = mailsTo(confirmedZh).at(-1)!;
    expect(en.subject).toBe("November news");
    expect(zh.subject).toBe("十一月新闻");
    expect(en.html).toContain("<h1>Hello</h1>");
    expect(en.html).toContain("<strong>new</strong>");
    expect(en.html).not.toContain("<script>");
    expect(zh.html).toContain("<strong>节点</strong>");
    const unsubscribe = /unsubscribe\?token=([A-Za-z0-9_-]+)/.exec(en.text)![1];
    expect(en.html).toContain(`unsubscribe?token=${unsubscribe}`);
    expect(await ok("/anon/newsletter/unsubscribe", { token: unsubscribe })).toEqual({ email: confirmedEn });
    expect(await ok("/anon/newsletter/unsubscribe", { token: unsubscribe })).toEqual({ email: confirmedEn }); // the same click again
    expect((await call("/anon/newsletter/unsubscribe", { token: "B".repeat(43) })).message).toBe(
      Msg.NEWSLETTER_LINK_INVALID,
    );
    const [issue] = await service.services.db
      .select()
      .from(newsletterIssues)
      .where(eq(newsletterIssues.id, sent.issueId));
    expect(issue).toMatchObject({ status: 2, sent: sent.recipients });
    // The next issue skips the unsubscribed address.
    await ok(
      "/sys/ops/newsletter/send",
      { subjectEn: "December", subjectZh: "十二月", bodyEn: "d", bodyZh: "d" },
      operator,
    );
    await service.runJobs();
    expect(mailsTo(confirmedEn).at(-1)!.subject).toBe("November news");
    expect(mailsTo(confirmedZh).at(-1)!.subject).toBe("十二月");
  });

  it("sends a large list in batches, each mail once", async () => {
    const now = clock;
    const rows = Array.from({ length: NEWSLETTER_BATCH + 5 }, (_, i) => ({
      email: `${uniqueName(`bulk${i}`)}@example.com`,
      language: "en",
      status: SubscriberStatus.CONFIRMED,
      unsubscribeHash: `h-${i}-${Math.random()}`,
      unsubscribeSealed: "",
      createdAt: now,
    }));
    // Sealed with the service's own key so the job can open them.
    const { sealWith } = await import("#backend/kit/sealed.ts");
    const { UNSUBSCRIBE_KEYS } = await import("#backend/domains/support/rules.ts");
    for (const r of rows)
      r.unsubscribeSealed = sealWith(
        service.services.env,
        UNSUBSCRIBE_KEYS,
        `tok${Math.random().toString(36).slice(2)}`.padEnd(40, "x"),
      );
    await service.services.db.insert(newsletterSubscribers).values(rows);
    const sent = await ok(
      "/sys/ops/newsletter/send",
      { subjectEn: "Bulk", subjectZh: "批量", bodyEn: "b", bodyZh: "b" },
      operator,
    );
    expect(sent.recipients).toBeGreaterThan(NEWSLETTER_BATCH);
    await service.runJobs();
    await service.runJobs();
    for (const r of rows) expect(mailsTo(r.email).map((m) => m.subject)).toEqual(["Bulk"]);
    const [issue] = await service.services.db
      .select()
      .from(newsletterIssues)
      .where(eq(newsletterIssues.id, sent.issueId));
    expect(issue).toMatchObject({ status: 2, sent: sent.recipients });
  });
});

describe("the limits of the anonymous forms (Hardening)", () => {
  let limited: Vueapi;
  beforeAll(async () => {
    limited = await openVueapi("support-limits", {
      DEMO: "0",
      TEST_CAPTCHA: CAPTCHA,
      JOBS_INTERVAL_MS: "0",
      RATE_LIMITS: "support.ip=2/1h,newsletter.ip=2/1h",
    });
  }, 120_000);
  afterAll(async () => {
    await limited?.close();
  });
  const from = (s: Vueapi, p: string, body: object) =>
    s.handle(
      new Request(`http://test.invalid/vueapi${p}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }),
      { clientAddress: "198.51.100.7" },
    );

  it("counts tickets and subscriptions per address and refuses past the limit with 429", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await from(limited, "/anon/technicalSupport/insertTech", {
        question: `q${i}`,
        contactMobile: "13800138000",
        ...(await captcha(limited)),
      });
      expect((await res.json()).code).toBe(0);
    }
    const third = await from(limited, "/anon/technicalSupport/insertTech", {
      question: "q3",
      contactMobile: "13800138000",
      ...(await captcha(limited)),
    });
    expect(third.status).toBe(429);
    for (let i = 0; i < 2; i++) {
      const res = await from(limited, "/anon/newsletter/subscribe", {
        email: `${uniqueName("lim")}@example.com`,
        ...(await captcha(limited)),
      });
      expect((await res.json()).code).toBe(0);
    }
    expect(
      (
        await from(limited, "/anon/newsletter/subscribe", {
          email: `${uniqueName("lim")}@example.com`,
          ...(await captcha(limited)),
        })
      ).status,
    ).toBe(429);
  });
});
