import { readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { createInstance, type TFunction } from "i18next";
import { messageParams } from "#app/lib/format.ts";
import { isTeamRole, type TeamRole } from "#contract/team-roles.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { messages, users } from "#backend/db/tables.ts";
import { teamMembers } from "#backend/domains/accounts/tables.ts";
import { scheduleMany, type JobHandler } from "#backend/jobs/runner.ts";
import { mailLanguage, type Language } from "#backend/mail.ts";

/**
 * Mails by role (issue 33, docs/decisions/085): a Message Center message about the account's money or services is
 * also mailed to the members whose role deals with it, each in their language, with the message's text and a link
 * to the Message center. Money goes to the owner and finance members; services to the owner, admins and developers.
 * An account without members (an individual, an enterprise that invited nobody) is its own owner.
 */
export type MailTopic = "money" | "services";

export const TOPIC_ROLES: Record<MailTopic, readonly TeamRole[]> = {
  money: ["owner", "finance"],
  services: ["owner", "admin", "developer"],
};

const MONEY: MailTopic = "money";
const SERVICES: MailTopic = "services";

/** Which messages are mailed, by their text key (locales/<lng>/messages.json); every key is here or in NOT_MAILED. */
export const MAIL_TOPICS: Readonly<Record<string, MailTopic>> = {
  "messages.invoiceApproved": MONEY,
  "messages.invoiceRejected": MONEY,
  "messages.invoiceDelivered": MONEY,
  "messages.rechargePaid": MONEY,
  "messages.rechargeFailed": MONEY,
  "messages.rechargeExpired": MONEY,
  "messages.rechargeInReview": MONEY,
  "messages.rechargeReviewCredited": MONEY,
  "messages.rechargeReviewRejected": MONEY,
  "messages.remittanceConfirmed": MONEY,
  "messages.remittanceRejected": MONEY,
  "messages.withdrawalApproved": MONEY,
  "messages.withdrawalRejected": MONEY,
  "messages.withdrawalConfirmed": MONEY,
  "messages.cardSaved": MONEY,
  "messages.cardDeclined": MONEY,
  "messages.paymentFailed": MONEY,
  "messages.billPaid": MONEY,
  "messages.billWaitsForFinance": MONEY,
  "messages.billAutoPaid": MONEY,
  "messages.autoPayFailed": MONEY,
  "messages.billExpired": MONEY,
  "messages.trafficBill": MONEY,
  "messages.crossChainBill": MONEY,
  "messages.alerts.budget": MONEY,
  "messages.alerts.budgetReached": MONEY,
  "messages.alerts.balance": MONEY,
  "messages.alerts.ipfsTraffic": MONEY,
  "messages.alerts.ipfsTrafficReached": MONEY,
  "messages.alerts.nodeEndWeek": MONEY,
  "messages.alerts.nodeEndDay": MONEY,
  "messages.alerts.serviceEndWeek": MONEY,
  "messages.alerts.serviceEndDay": MONEY,
  "messages.service.renewalPaid": MONEY,
  "messages.service.renewalUnpaid": MONEY,
  "messages.dedicatedNodes.renewalPaid": MONEY,
  "messages.dedicatedNodes.renewalUnpaid": MONEY,
  "messages.service.submit": SERVICES,
  "messages.service.resubmit": SERVICES,
  "messages.service.initialApprove": SERVICES,
  "messages.service.initialReject": SERVICES,
  "messages.service.testPass": SERVICES,
  "messages.service.testFail": SERVICES,
  "messages.service.finalApprove": SERVICES,
  "messages.service.finalReject": SERVICES,
  "messages.service.pay": SERVICES,
  "messages.service.expire": SERVICES,
  "messages.service.deploySuccess": SERVICES,
  "messages.service.deployFail": SERVICES,
  "messages.service.deactivate": SERVICES,
  "messages.service.suspend": SERVICES,
  "messages.service.enable": SERVICES,
  "messages.service.requestEnable": SERVICES,
  "messages.service.declineEnable": SERVICES,
  "messages.service.uninstall": SERVICES,
  "messages.service.refundRejected": SERVICES,
  "messages.service.lapse": SERVICES,
  "messages.service.upgradeRequested": SERVICES,
  "messages.service.upgradeApproved": SERVICES,
  "messages.service.upgradeApprovedFree": SERVICES,
  "messages.service.upgradeRejected": SERVICES,
  "messages.service.upgradePaid": SERVICES,
  "messages.service.upgradeSucceeded": SERVICES,
  "messages.service.upgradeFailed": SERVICES,
  "messages.service.upgradeExpired": SERVICES,
  "messages.service.awaitsFabricNetwork": SERVICES,
  "messages.product.approved": SERVICES,
  "messages.product.rejected": SERVICES,
  "messages.participation.applied": SERVICES,
  "messages.participation.submitted": SERVICES,
  "messages.participation.publisherApprove": SERVICES,
  "messages.participation.publisherReject": SERVICES,
  "messages.participation.operatorApprove": SERVICES,
  "messages.participation.operatorReject": SERVICES,
  "messages.participation.order": SERVICES,
  "messages.participation.skipOrder": SERVICES,
  "messages.participation.reorder": SERVICES,
  "messages.participation.pay": SERVICES,
  "messages.participation.workOrderDone": SERVICES,
  "messages.participation.confirm": SERVICES,
  "messages.participation.disabled": SERVICES,
  "messages.ipfsUpgradeSucceeded": SERVICES,
  "messages.ipfsUpgradeFailed": SERVICES,
  "messages.dedicatedNodes.deployed": SERVICES,
  "messages.dedicatedNodes.deployFailed": SERVICES,
  "messages.dedicatedNodes.upgradeSucceeded": SERVICES,
  "messages.dedicatedNodes.upgradeFailed": SERVICES,
  "messages.dedicatedNodes.resumed": SERVICES,
  "messages.dedicatedNodes.lapsed": SERVICES,
  "messages.gasLow": SERVICES,
  "messages.alerts.requests": SERVICES,
  "messages.alerts.requestsReached": SERVICES,
  "messages.alerts.ipfsCapacity": SERVICES,
  "messages.alerts.ipfsCapacityReached": SERVICES,
};

/** The messages shown in the Message center only, and why they are not mailed. */
export const NOT_MAILED: Readonly<Record<string, string>> = {
  "messages.welcome": "the login's own greeting, shown at its first visit",
  "messages.passwordChanged": "about the login, not the account; shown at its next visit",
  "messages.autoPayOffer": "product news, not an event of the account",
  "messages.participation.toOperators": "the operators' review queue, which they work from the console",
  "messages.jobDead": "a stopped background task, which operations retry",
  "messages.certification.approved": "the certification page shows it to the owner who submitted it",
  "messages.certification.rejected": "the certification page shows it to the owner who submitted it",
};

/** The job that finds who receives a message's mail, and the job that mails one of them. */
export const NOTICE_MAIL = "inbox.noticeMail";
export const NOTICE_MAIL_TO = "inbox.noticeMailTo";

/**
 * A message older than this when its mail would go is not mailed: news of the past (the demo data's history, a
 * queue stopped for a day) is in the Message center, and a mail about it would only mislead.
 */
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

/** Schedules, in the caller's transaction, the mail of each new message that has a topic (the messages' ids). */
export async function scheduleNoticeMails(tx: Db | Tx, written: readonly { id: number; textKey: string; at: Date }[]) {
  await scheduleMany(
    tx,
    NOTICE_MAIL,
    written
      .filter((m) => MAIL_TOPICS[m.textKey])
      .map((m) => ({ payload: { messageId: m.id }, runAt: m.at, dedupeKey: `${NOTICE_MAIL}:${m.id}` })),
  );
}

/** The members of `accountId` in `roles` with their address and language; the account itself as its owner when it has no members. */
async function recipients(db: Db, accountId: number, roles: readonly TeamRole[]) {
  const members = await db
    .select({ userId: users.id, role: teamMembers.role })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.memberId))
    .where(eq(teamMembers.accountId, accountId));
  if (members.length === 0) return roles.includes("owner") ? [{ userId: accountId, role: "owner" as TeamRole }] : [];
  return members.flatMap((m) =>
    isTeamRole(m.role) && roles.includes(m.role) ? [{ userId: m.userId, role: m.role }] : [],
  );
}

async function messageOf(db: Db, id: number) {
  const [message] = await db.select().from(messages).where(eq(messages.id, id));
  return message;
}

/** One message's mails: one job per recipient, so a run that dies mails nobody twice but the one it was sending. */
const noticeMail: JobHandler = async (payload, services) => {
  const message = await messageOf(services.db, Number(payload.messageId));
  const topic = message && MAIL_TOPICS[message.textKey];
  if (!message || !topic) return;
  if (services.now().getTime() - message.createdAt.getTime() > STALE_AFTER_MS) return;
  const to = await recipients(services.db, message.userId, TOPIC_ROLES[topic]);
  await scheduleMany(
    services.db,
    NOTICE_MAIL_TO,
    to.map((r) => ({
      payload: { messageId: message.id, userId: r.userId },
      runAt: services.now(),
      dedupeKey: `${NOTICE_MAIL_TO}:${message.id}:${r.userId}`,
    })),
  );
};

const translators = new Map<Language, Promise<TFunction>>();
/** The Message center's texts (locales/<lng>/messages.json, with common.json for the role names) in one language. */
function translator(language: Language): Promise<TFunction> {
  let known = translators.get(language);
  if (!known) {
    const load = (lng: string, ns: string) =>
      JSON.parse(readFileSync(path.resolve(process.cwd(), "locales", lng, `${ns}.json`), "utf8"));
    const instance = createInstance();
    known = instance
      .init({
        lng: language,
        fallbackLng: "en",
        ns: ["messages", "common"],
        defaultNS: "messages",
        resources: Object.fromEntries(
          (["en", "zh-CN"] as const).map((lng) => [
            lng,
            { messages: load(lng, "messages"), common: load(lng, "common") },
          ]),
        ),
        interpolation: { escapeValue: false },
      })
      .then(() => instance.t);
    translators.set(language, known);
  }
  return known;
}

/** A message's text as the Message center shows it, in `language` (the search box's results, docs/decisions/089). */
export async function messageText(language: Language, textKey: string, params: Record<string, string>) {
  const t = await translator(language);
  return t(textKey, messageParams(params, language));
}

/** The mail of one message to one member, if they still hold a role that receives it. */
const noticeMailTo: JobHandler = async (payload, services) => {
  const { db } = services;
  const message = await messageOf(db, Number(payload.messageId));
  const topic = message && MAIL_TOPICS[message.textKey];
  if (!message || !topic) return;
  const userId = Number(payload.userId);
  const holder = (await recipients(db, message.userId, TOPIC_ROLES[topic])).find((r) => r.userId === userId);
  if (!holder) return;
  const [account] = await db
    .select({ userName: users.userName, companyName: users.companyName })
    .from(users)
    .where(eq(users.id, message.userId));
  const [member] = await db
    .select({ email: users.email, language: users.language, activatedAt: users.activatedAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!account || !member?.activatedAt) return;
  const language = mailLanguage(member.language);
  const t = await translator(language);
  const center = "/g/home/userCenter/MessageCenter";
  // A member acting for another account opens the Message center of this one: the switcher's link, then the page.
  const link =
    userId === message.userId
      ? center
      : `/g/home/team/switch?accountId=${message.userId}&returnTo=${encodeURIComponent(center)}`;
  await services.mailer.send(
    services.limits.requestedMailPermit(member.email),
    topic === MONEY ? "moneyNotice" : "servicesNotice",
    language,
    {
      text: t(message.textKey, messageParams(message.params, language)),
      account: account.companyName ?? account.userName,
      role: t(`common:team.roles.${holder.role}`),
      link: `${services.env.publicUrl}${link}`,
    },
  );
};

export const inboxJobs = { [NOTICE_MAIL]: noticeMail, [NOTICE_MAIL_TO]: noticeMailTo };
