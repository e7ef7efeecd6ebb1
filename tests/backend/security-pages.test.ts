import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { PASSWORD } from "./client.ts";
import { buildWorld, figuresOf, leaksOf, publisher, type Kind, type World } from "./security/world.ts";

/**
 * Pages and resource routes with foreign, unknown and malformed ids (issue "Hardening", security suites),
 * over HTTP against the built server: user A, logged in through the login form (the test captcha), asks
 * for every route that reads an id from its URL with user B's ids, an unknown id and non-numeric ones.
 * A page about the record (a primary id) answers 404; a page where the id only selects something on A's
 * own page (a dialog, a filter) shows nothing of B's; nothing answers a 5xx; B's data is never in the HTML.
 * Anonymous visitors are sent to the login page. The route files are scanned for the query parameters they
 * read (directly or through app/lib helpers): one not classified below fails the suite.
 */

const root = path.resolve(__dirname, "../..");
const routesDir = path.join(root, "app/routes");

type IdParam = {
  kind: Kind;
  /** "404": the page is about this record; "no-data": it only picks something on the caller's own page. */
  expect: "404" | "no-data";
  /** The rest of the query, with A's own records, so that only this parameter is foreign. */
  with?: (a: World) => Record<string, string>;
  /** The parameter's kind depends on another parameter (Cover: kind=app|product). */
  by?: { param: string; kinds: Record<string, Kind> };
  /** A page answering bad links with another 4xx than 404 (e.g. the JOIN page's "invalid link", 400). */
  statuses?: number[];
  /**
   * What a malformed value (or a near miss a strict reader refuses) may get besides the 404: a parameter
   * that only opens something on the caller's own page may be ignored (200); ProductEdit without a valid
   * id is the form for a new product (200).
   */
  malformed?: number[];
};
type Param = IdParam | { notId: string };

const PAGE: Param = { notId: "page number" };
const NAME: Param = { notId: "name search" };
const DAY: Param = { notId: "date filter" };
const SIZE: Param = { notId: "page size (10, 20 or 50)" };

/** Every query parameter each route file reads: the id ones with their kind, the others with why they are not ids. */
const ROUTE_PARAMS: Record<string, Record<string, Param>> = {
  "g.home.AppStore.Cover.tsx": {
    id: { kind: "product", expect: "404", by: { param: "kind", kinds: { app: "app", product: "product" } } },
    kind: { notId: "app or product" },
  },
  "g.home.AppStore.MyProducts.tsx": { page: { notId: "page number" }, confirm: { kind: "product", expect: "no-data" } },
  "g.home.AppStore.Product.tsx": { id: { kind: "product", expect: "404" } },
  "g.home.AppStore.ProductEdit.tsx": { id: { kind: "product", expect: "404", malformed: [200] } },
  "g.home.AppStore.Products.tsx": { type: { notId: "product type filter" }, page: PAGE, name: NAME },
  "g.home.AppStore.Service.tsx": { appId: { kind: "app", expect: "404" }, page: { notId: "comment page" } },
  "g.home.AppStore.Services.tsx": { industry: { notId: "industry filter" }, page: PAGE, name: NAME },
  "g.home.MyCertificates.download.tsx": {
    certificateId: { kind: "certificate", expect: "404", with: () => ({ kind: "certificate" }) },
    kind: { notId: "certificate or key" },
  },
  "g.home.ParticipatedServices.Access.tsx": { appId: { kind: "app", expect: "404" } },
  "g.home.ParticipatedServices.JOIN.tsx": {
    a: {
      kind: "app",
      expect: "404",
      statuses: [400, 404],
      with: (a) => ({ b: "APPX", c: a.invite.get("c")!, d: a.invite.get("d")!, e: "en" }),
    },
    b: { notId: "the service's public code, checked against the token" },
    c: { notId: "the invitation token (a capability, signed)" },
    d: { notId: "the invitation's expiry" },
    e: { notId: "the invitation's language" },
  },
  "g.home.ParticipatedServices.ServicesDetail.tsx": {
    appId: { kind: "app", expect: "404" },
    appJoinAuditId: { kind: "join", expect: "no-data", with: (a) => ({ appId: String(a.named.participatedAppId) }) },
  },
  "g.home.ParticipatedServices._index.tsx": { status: { notId: "status filter" }, page: PAGE, name: NAME },
  "g.home.MyCertificates._index.tsx": { page: PAGE },
  "g.home.TestServices._index.tsx": { page: PAGE, pageSize: SIZE },
  "g.home.TestServices.TestServicesNew.tsx": {
    id: { kind: "testService", expect: "404", malformed: [200] },
    upgrade: { notId: "upgrade flag" },
  },
  "g.home.TestServices.TestServicesDetail.tsx": { id: { kind: "testService", expect: "404" } },
  "g.home.operations.AuditLog.tsx": { page: PAGE },
  // Issue 15 (docs/decisions/042): manual pages and market entries are public to every reader, operators change them.
  "g.main.documentation.tsx": {
    page: { notId: "a manual page's slug (public)" },
    q: { notId: "search words" },
    lang: { notId: "search language" },
  },
  "g.home.DeveloperCommunity.ChaincodeMarket.tsx": { page: PAGE, language: { notId: "chaincode language filter" } },
  "g.home.DeveloperCommunity.ChaincodeMarket_.Package.tsx": {
    marketPackageId: { notId: "a market entry (public to every user)" },
  },
  "g.home.DeveloperCommunity.ChaincodeMarket_.download.tsx": {
    marketPackageId: { notId: "a market entry (public to every user)" },
  },
  "g.home.operations.Documentation.tsx": {
    edit: { notId: "a manual page (operators only)" },
    new: { notId: "new page flag" },
    confirm: { notId: "a manual page to delete (operators only)" },
  },
  "g.home.operations.LegalTexts.tsx": { page: { notId: "a legal or contact page's kind (operators only)" } },
  "g.home.operations.ChaincodeMarket.tsx": {
    page: PAGE,
    edit: { notId: "a market entry (operators only)" },
    new: { notId: "new entry flag" },
    confirm: { notId: "a market entry to withdraw (operators only)" },
  },
  "g.home.operations.FailedJobs.tsx": { page: PAGE },
  "g.home.operations.ChainNodes.tsx": { move: { notId: "a chain's name (operators only; an unknown one is a 404)" } },
  "g.home.operations.Credentials.tsx": { page: PAGE },
  // The participant's access kit (docs/decisions/070): only the participant's own.
  "g.home.ParticipatedServices.AccessKit.ts": { appJoinAuditId: { kind: "join", expect: "404" } },
  "g.home.ParticipationManagement.View.tsx": {
    appJoinAuditId: { kind: "join", expect: "404" },
    back: { notId: "the list's query to go back to" },
  },
  "g.home.ParticipationManagement._index.tsx": {
    auditState: { notId: "status filter" },
    page: PAGE,
    all: { notId: "show all" },
    name: NAME,
  },
  // The publisher's download of their service's CA certificate: another's service is a 404.
  "g.home.PermissionedServices.PublishedServices.ServiceCa.ts": { appId: { kind: "app", expect: "404" } },
  "g.home.PermissionedServices.PublishedServices.ServicesDetail.tsx": {
    appId: { kind: "app", expect: "404" },
    appVerId: { kind: "appVer", expect: "no-data", with: (a) => ({ appId: String(a.runAppId) }) },
    invite: { kind: "appVer", expect: "no-data", with: (a) => ({ appId: String(a.runAppId) }) },
    join: { kind: "appVer", expect: "no-data", with: (a) => ({ appId: String(a.runAppId) }) },
    activeNames: { notId: "tab" },
    confirm: { notId: "which action to confirm" },
  },
  "g.home.IPFS._index.tsx": { page: PAGE },
  "g.home.IDEServices.tsx": { page: PAGE, pageSize: SIZE, confirm: { kind: "ideWorkspace", expect: "no-data" } },
  // /ide/portal sits outside /g (SPEC §2 lists it in the logged-in area): the workspace is the page's record.
  "ide.portal.tsx": {
    workspaceId: { kind: "ideWorkspace", expect: "404" },
    fileId: { kind: "ideFile", expect: "no-data", with: (a) => ({ workspaceId: String(a.ids.ideWorkspace[0]) }) },
    confirmDelete: {
      kind: "ideFile",
      expect: "no-data",
      with: (a) => ({ workspaceId: String(a.ids.ideWorkspace[0]) }),
    },
    contractId: {
      kind: "pcContract",
      expect: "no-data",
      with: (a) => ({ workspaceId: String(a.ids.ideWorkspace[0]) }),
    },
    network: { notId: "which of the workspace's deployments contractId picks (project or test network)" },
  },
  "g.home.search.tsx": { q: { notId: "the search query (docs/decisions/086)" } },
  "g.home.IPFS.Service.tsx": { ipfsServiceId: { kind: "ipfsService", expect: "404" }, page: PAGE, name: NAME },
  "g.home.IPFS.Traffic.tsx": { ipfsServiceId: { kind: "ipfsService", expect: "404" } },
  "g.home.IPFS.Traffic_.export[.csv].ts": { ipfsServiceId: { kind: "ipfsService", expect: "404" } },
  "g.home.IPFS.Upgrade.tsx": { ipfsServiceId: { kind: "ipfsService", expect: "404" } },
  "g.home.IPFS.UpgradeDetail.tsx": { upgradeId: { kind: "ipfsUpgrade", expect: "404" } },
  "g.home.IPFS.download.ts": {
    ipfsServiceId: { kind: "ipfsService", expect: "404", with: (a) => ({ cid: String(a.named.ipfsCid) }) },
    cid: { notId: "a CID the service pinned" },
    open: { notId: "view inline instead of saving" },
  },
  // Dedicated nodes (issue 17): the ids name the record; the name and type only repeat it (another one redirects to the record's own link).
  "g.home.PrivatedNodes.tsx": { page: PAGE, status: { notId: "status filter" } },
  "g.home.PrivatedNodesCheck.tsx": { prnProjectId: { kind: "prnProject", expect: "404" } },
  "g.home.PrivatedNodesCa.ts": { prnProjectId: { kind: "prnProject", expect: "404" } },
  "g.home.PrivatedNodesConfig.tsx": {
    prnProjectId: { kind: "prnProject", expect: "404" },
    prnProjectName: { notId: "the project's name, repeated in the link" },
    page: PAGE,
  },
  "g.home.PrivatedNodesConfigNew.tsx": {
    prnProjectId: { kind: "prnProject", expect: "404" },
    prnProjectName: { notId: "the project's name, repeated in the link" },
  },
  "g.home.PrivatedNodesConfigDetail.tsx": {
    prnProjectUpdateId: { kind: "prnUpgrade", expect: "404" },
    prnUpdateType: { notId: "the upgrade's type, repeated in the link" },
    prnProjectName: { notId: "the project's name, repeated in the link" },
  },
  "g.home.DID._index.tsx": { page: PAGE },
  "g.home.DID.Detail.tsx": { didId: { kind: "did", expect: "404" } },
  "g.home.DID.Credential.tsx": { credentialId: { kind: "credential", expect: "404" } },
  "g.home.DID.Credentials.tsx": { page: PAGE, side: { notId: "issued or received" } },
  "g.home.PermissionlessServices._index.tsx": { page: PAGE, name: NAME, appType: { notId: "chain type filter" } },
  "g.home.PermissionlessServices.Home.tsx": {
    page: PAGE,
    name: NAME,
    planId: { kind: "pcPlan", expect: "no-data", malformed: [200] },
  },
  "g.home.PermissionlessServices.NewProject.tsx": { planId: { kind: "pcPlan", expect: "404" } },
  "g.home.PermissionlessServices.Project.tsx": {
    projectId: { kind: "pcProject", expect: "404" },
    range: { notId: "statistics period" },
  },
  "g.home.PermissionlessServices.Project_.export[.csv].ts": {
    projectId: { kind: "pcProject", expect: "404" },
    range: { notId: "statistics period" },
  },
  "g.home.PermissionlessServices.Accounts.tsx": { projectId: { kind: "pcProject", expect: "404" }, page: PAGE },
  "g.home.PermissionlessServices.Accounts_.export[.csv].ts": { projectId: { kind: "pcProject", expect: "404" } },
  "g.home.PermissionlessServices.Contracts.tsx": { projectId: { kind: "pcProject", expect: "404" }, page: PAGE },
  "g.home.PermissionlessServices.Contract.tsx": {
    contractId: { kind: "pcContract", expect: "404" },
    page: { notId: "events page number" },
  },
  "g.home.PermissionlessServices.Transaction.tsx": { hash: { kind: "pcTx", expect: "404" } },
  "g.home.PermissionlessServices.NewAccount.tsx": { projectId: { kind: "pcProject", expect: "404" } },
  "g.home.PermissionlessServices.Account.tsx": {
    accountId: { kind: "pcAccount", expect: "404" },
    gasRange: { notId: "gas chart period" },
  },
  "g.home.PermissionlessServices.Account_.keystore.ts": { accountId: { kind: "pcAccount", expect: "404" } },
  "g.home.PermissionedServices.PublishedServices._index.tsx": {
    appVerId: { kind: "appVer", expect: "no-data", with: () => ({ confirm: "deactivate" }) },
    invite: { kind: "appVer", expect: "no-data" },
    join: { kind: "appVer", expect: "no-data" },
    confirm: { notId: "which action to confirm" },
    page: PAGE,
    pageSize: SIZE,
    name: NAME,
  },
  "g.home.PermissionedServices.PublishedServices_.NewServices.tsx": {
    // The wizard answers a malformed query with a 400 (app/lib/wizard.server.ts readWizardQuery).
    appId: { kind: "app", expect: "404", with: () => ({ appState: "add" }), malformed: [400] },
    appState: { notId: "add, mod, update, mod2" },
    step: { notId: "wizard step" },
    confirm: { notId: "which deletion to confirm" },
    market: { notId: "a chaincode market entry (public to every user)" },
  },
  "g.home.PermissionedServices.PublishedServices_.NewServices_.cover.ts": { appId: { kind: "app", expect: "404" } },
  "g.home.operations.Invoices.tsx": {
    id: { kind: "invoice", expect: "no-data" },
    status: { notId: "status filter" },
    page: PAGE,
  },
  "g.home.operations.Participations.tsx": { page: PAGE },
  "g.home.Configuration.tsx": { appId: { kind: "app", expect: "no-data" }, page: PAGE, pageSize: SIZE },
  "g.home.ConfigurationNew.tsx": { appId: { kind: "app", expect: "404" } },
  "g.home.ConfigurationDetail.tsx": { upgradeId: { kind: "upgrade", expect: "404" } },
  "g.home.operations.ConfigUpgrades.tsx": { queue: { notId: "pending or not approved" }, page: PAGE },
  "g.home.operations.IpfsUpgrades.tsx": { page: PAGE },
  // Technical support (docs/decisions/041): a user's tickets are theirs; operators read every ticket.
  "g.home.DeveloperCommunity.TechnicalSupport.tsx": { status: { notId: "status filter" }, page: PAGE, pageSize: SIZE },
  "g.home.DeveloperCommunity.TechnicalSupportDetail.tsx": {
    ticketId: { kind: "supportTicket", expect: "404" },
    confirm: { notId: "close confirmation" },
  },
  "g.home.DeveloperCommunity.TechnicalSupportFile.ts": { ticketId: { kind: "supportTicket", expect: "404" } },
  "g.home.operations.Tickets.tsx": { status: { notId: "status filter" }, page: PAGE, pageSize: SIZE },
  "g.home.operations.TicketDetail.tsx": {
    ticketId: { notId: "any ticket: operators only (requireOperator)" },
    confirm: { notId: "close confirmation" },
  },
  "g.home.operations.TicketFile.ts": { ticketId: { notId: "any ticket's file: operators only (requireOperator)" } },
  "g.home.operations.Newsletter.tsx": { page: PAGE, pageSize: SIZE },
  "g.main.supportTicket.tsx": {
    key: { notId: "a visitor ticket's private key: unguessable, an unknown one is a 404" },
    confirm: { notId: "close confirmation" },
  },
  "g.main.subscribes.tsx": { sent: { notId: "the confirmation mail was sent" } },
  "g.main.subscribes_.confirm.tsx": { token: { notId: "a one-time confirmation token from the mail" } },
  "g.main.subscribes_.unsubscribe.tsx": { token: { notId: "an unsubscribe token from a newsletter mail" } },
  "g.home.operations.Prices.tsx": { page: PAGE },
  "g.home.operations.Products.tsx": { page: PAGE },
  "g.home.operations.Remittances.tsx": { status: { notId: "open or all" }, page: PAGE },
  "g.home.operations.Certifications.tsx": { status: { notId: "open or all" }, page: PAGE },
  "g.home.operations.CertificationLicence.ts": {
    userId: { notId: "any enterprise's licence: operators only (requireOperator)" },
  },
  "g.home.operations.PaymentReviews.tsx": { status: { notId: "open or all" }, page: PAGE },
  "g.home.operations.Withdrawals.tsx": { status: { notId: "open or all" }, page: PAGE },
  "g.home.operations.Refunds.tsx": { state: { notId: "state filter" }, page: PAGE },
  "g.home.operations.ServiceReviews.tsx": { queue: { notId: "initial or final" }, name: NAME, page: PAGE },
  "g.home.operations.Services.tsx": { filter: { notId: "status filter" }, name: NAME, page: PAGE },
  "g.home.tsx": { panel: { notId: "the profile panel (read in the browser)" } },
  "g.home.userCenter.BillDetail.tsx": {
    billId: { kind: "bill", expect: "404" },
    confirm: { notId: "pay confirmation" },
  },
  // A bill's breakdown as CSV (docs/decisions/093): another account's bill is a 404 like an unknown one.
  "g.home.userCenter.BillDetail_.breakdown[.csv].ts": { billId: { kind: "bill", expect: "404" } },
  // Teams (issue 33): a member to confirm removing or making owner, or just removed (only the caller's own team's
  // are shown, with the keys they saw in it); the switcher's account (another's is refused with a flash) and the page after it; an
  // invitation's link (a capability).
  "g.home.userCenter.Members.tsx": {
    remove: { kind: "user", expect: "no-data" },
    removed: { kind: "user", expect: "no-data" },
    transfer: { kind: "user", expect: "no-data" },
  },
  "g.home.team.switch.tsx": {
    accountId: { kind: "user", expect: "no-data" },
    returnTo: { notId: "the console page to open after the switch (a message's mail links the Message center)" },
  },
  "g.main.team.accept.tsx": { token: { notId: "the invitation's link (a capability)" } },
  "g.home.userCenter.ContactInformation.tsx": {
    edit: { kind: "contact", expect: "404", malformed: [200] },
    delete: { kind: "contact", expect: "404", malformed: [200] },
    page: PAGE,
  },
  "g.home.userCenter.Invoices.Add.tsx": {
    step: { notId: "select or confirm" },
    billIds: { kind: "bill", expect: "no-data", with: () => ({ step: "confirm" }) },
  },
  "g.home.userCenter.Invoices.Addresses.tsx": {
    edit: { kind: "addressee", expect: "404", malformed: [200] },
    delete: { kind: "addressee", expect: "no-data" },
    form: { notId: "add form open" },
    back: { notId: "way back" },
    page: PAGE,
  },
  "g.home.userCenter.Invoices.Titles.tsx": {
    edit: { kind: "title", expect: "404", malformed: [200] },
    delete: { kind: "title", expect: "no-data" },
    form: { notId: "add form open" },
    back: { notId: "way back" },
    page: PAGE,
  },
  "g.home.userCenter.Invoices.Detail.tsx": { id: { kind: "invoice", expect: "404" } },
  "g.home.userCenter.Invoices._index.tsx": { status: { notId: "status filter" }, page: PAGE },
  "g.home.userCenter.Invoices_.export[.csv].ts": { status: { notId: "status filter" } },
  "g.home.userCenter.MessageCenter.tsx": { status: { notId: "read filter" }, page: PAGE, pageSize: SIZE },
  "g.home.userCenter.MyAccount.tsx": {
    page: PAGE,
    pageSize: SIZE,
    kind: { notId: "ledger entry kind filter" },
    dateFrom: DAY,
    dateTo: DAY,
  },
  "g.home.userCenter.MyAccount_.transactions[.csv].ts": {
    kind: { notId: "ledger entry kind filter" },
    dateFrom: DAY,
    dateTo: DAY,
  },
  "g.home.userCenter.MyAccount_.Recharge.tsx": { page: PAGE },
  "g.home.userCenter.MyAccount_.Withdraw.tsx": { page: PAGE },
  "g.home.userCenter.MyBills.tsx": {
    page: PAGE,
    pageSize: SIZE,
    dateFrom: DAY,
    dateTo: DAY,
    confirm: { notId: "Pay all confirmation" },
  },
  "g.home.[index].tsx": {
    blocked: { notId: "the blocked action to explain" },
    returnTo: { notId: "way back (a console path, validated)" },
  },
  "g.home.userCenter.MyBills_.export[.csv].ts": { dateFrom: DAY, dateTo: DAY },
  // Team activity (docs/decisions/079): a member id only filters the acting account's own entries.
  // An alert a message's link marks in the account's own history (issue 35 §1).
  "g.home.userCenter.Alerts.tsx": {
    page: PAGE,
    alertId: { kind: "alert", expect: "no-data", malformed: [200] },
    // The webhook's deliveries (docs/decisions/092): their page number, and the no-JavaScript delete confirmation.
    dpage: { notId: "deliveries page number" },
    confirmDelete: { notId: "a confirm step's flag" },
  },
  "g.home.userCenter.Activity.tsx": {
    page: PAGE,
    memberId: { notId: "member filter (the account's own entries only)" },
    kind: { notId: "activity kind filter" },
    dateFrom: DAY,
    dateTo: DAY,
  },
  "g.home.userCenter.Activity_.export[.csv].ts": {
    memberId: { notId: "member filter (the account's own entries only)" },
    kind: { notId: "activity kind filter" },
    dateFrom: DAY,
    dateTo: DAY,
  },
  "g.home.userCenter.MyAccount_.Recharge_.Return.tsx": { paymentNo: { kind: "payment", expect: "404" } },
  "g.home.userCenter.MyAccount_.Update.tsx": { setup: { kind: "setupRef", expect: "no-data" } },
  "g.home.logout.tsx": { scope: { notId: "this session or every session" } },
  "g.lang.tsx": { lng: { notId: "language" }, redirectTo: { notId: "way back" } },
  "g.main.Login.SetPassWord.tsx": {
    phone: { notId: "account name typed on the previous step" },
    captcha: { notId: "reset code" },
    retrieveWay: { notId: "email" },
  },
  "g.main.Login.forgetTwo.tsx": {
    phone: { notId: "account name typed on the previous step" },
    retrieveWay: { notId: "email" },
  },
  // The community's content (docs/decisions/040): posts and partners are public to every user (drafts answer 404 to
  // all but operators), so their ids name no user's record; the operations pages are operators' only.
  "g.home.DeveloperCommunity.News_Events.tsx": {
    type: { notId: "news or event filter" },
    when: { notId: "upcoming or past filter" },
    q: { notId: "search text" },
    page: PAGE,
    pageSize: SIZE,
  },
  "g.home.DeveloperCommunity.News_EventsDetail.tsx": {
    eventId: { notId: "a published news item or event, public to every user" },
  },
  "g.home.DeveloperCommunity.ReleaseNotes.tsx": { page: PAGE, pageSize: SIZE },
  "g.home.operations.News.tsx": {
    kind: { notId: "news or event tab" },
    confirm: { notId: "a post to confirm deleting (operators only)" },
    page: PAGE,
    pageSize: SIZE,
  },
  "g.home.operations.ReleaseNotes.tsx": {
    kind: { notId: "post kind" },
    confirm: { notId: "a post to confirm deleting (operators only)" },
    page: PAGE,
    pageSize: SIZE,
  },
  "g.home.operations.Announcements.tsx": {
    kind: { notId: "post kind" },
    confirm: { notId: "a post to confirm deleting (operators only)" },
    page: PAGE,
    pageSize: SIZE,
  },
  "g.home.operations.PostEdit.tsx": {
    postId: { notId: "a post (operators only)" },
    kind: { notId: "the kind of a new post" },
  },
  "g.home.operations.Signups.tsx": { eventId: { notId: "an event (operators only)" }, page: PAGE, pageSize: SIZE },
  "g.home.operations.Signups_.export[.csv].ts": { eventId: { notId: "an event (operators only)" } },
  "g.home.operations.Partners.tsx": { confirm: { notId: "a partner to confirm deleting (operators only)" } },
  "g.home.operations.PartnerEdit.tsx": { partnerId: { notId: "a partner (operators only)" } },
  "g.main.announcements.tsx": { page: PAGE, pageSize: SIZE },
  "g.main.announcementDetail.tsx": { id: { notId: "a published announcement, public" } },
  "g.main.feeds.news.ts": { lang: { notId: "feed language" }, format: { notId: "rss or atom" } },
  "g.main.feeds.releaseNotes.ts": { lang: { notId: "feed language" }, format: { notId: "rss or atom" } },
  "g.main.partnerLogo.ts": { id: { notId: "a partner's logo, public" } },
  "g.main.UserActivation.tsx": {
    token: { notId: "the activation token from the mail (a capability)" },
    sent: { notId: "mail sent notice" },
    email: { notId: "where the mail went" },
  },
  "g.main.register.tsx": { type: { notId: "individual or enterprise" } },
  "locales.$lng.$ns.ts": { $lng: { notId: "language" }, $ns: { notId: "translation namespace" } },
  "g.home.DDC._index.tsx": { page: PAGE },
  "g.home.DDC.Detail.tsx": { ddcId: { kind: "ddc", expect: "404" } },
  // Public pages (SPEC §2): any minted DDC by its id, its details behind its QR-code password (docs/decisions/045).
  "g.main.ddc-view.tsx": { ddcId: { notId: "a DDC's public id (the page is public; a password guards its details)" } },
  "g.main.ddc-view_.file.ts": { ddcId: { notId: "a DDC's public id (its file, behind the same password)" } },
  "g.main.ddc-QRCode.tsx": { ddcId: { notId: "a DDC's public id (its QR code)" } },
  // Cross-chain services (issue 17): the service is the page's record; the filters and confirm only pick within it.
  "g.home.CrossChainService.Index.tsx": {
    status: { notId: "status filter" },
    page: PAGE,
    pageSize: SIZE,
    confirm: { kind: "app", expect: "no-data" },
    confirmAction: { notId: "deactivate or close" },
  },
  "g.home.CrossChainService.Dredge.tsx": { appId: { kind: "app", expect: "404" } },
  "g.home.CrossChainService.CrossChainDetail.tsx": {
    appId: { kind: "app", expect: "404" },
    status: { notId: "call status filter" },
    from: DAY,
    to: DAY,
    target: { notId: "target chain filter" },
    page: PAGE,
    pageSize: SIZE,
  },
  "g.home.CrossChainService.CrossChainDetail_.export[.csv].ts": {
    appId: { kind: "app", expect: "404" },
    status: { notId: "call status filter" },
    from: DAY,
    to: DAY,
    target: { notId: "target chain filter" },
  },
  "g.home.CrossChainService.CrossChainDetailView.tsx": {
    appId: { kind: "app", expect: "404", with: () => ({ callId: "1" }) },
    callId: {
      notId:
        "a call looked up within the caller's service named by appId (another service's call is not found there: 404)",
    },
  },
  "g.home.operations.CrossChainReviews.tsx": { status: { notId: "pending activation or deactivation" }, page: PAGE },
};

/* --------------------------------------- reading the route files --------------------------------------- */

const READ = /(?:searchParams|\bq|\bparams|\bown)\.(?:get|getAll|has)\("([^"]+)"\)/g;

/**
 * Functions of app/lib that read the query: the parameters each reads, directly or through the functions it
 * calls (to a fixed point), and whether a string argument names one (requiredId(url, "appId")).
 */
function libHelpers(): Map<string, { reads: Set<string>; named: string | null; body: string }> {
  const helpers = new Map<string, { reads: Set<string>; named: string | null; body: string }>();
  const dir = path.join(root, "app/lib");
  for (const file of readdirSync(dir).filter((f) => /\.tsx?$/.test(f))) {
    const text = readFileSync(path.join(dir, file), "utf8");
    const starts = [...text.matchAll(/(?:export )?(?:async )?function (\w+)/g)];
    starts.forEach((m, i) => {
      const body = text.slice(m.index, starts[i + 1]?.index ?? text.length);
      const signature = body.slice(0, body.indexOf("{"));
      const param = signature.match(/name(?:: string)?\s*=\s*"(\w+)"/);
      const readsName = /\.get\(name\)/.test(body) || /\w+\(url, name\)/.test(body);
      helpers.set(m[1], {
        reads: new Set([...body.matchAll(READ)].map((r) => r[1])),
        named: readsName ? (param?.[1] ?? "") : null,
        body,
      });
    });
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, h] of helpers) {
      for (const [other, o] of helpers) {
        if (other === name) continue;
        const calls = [...h.body.matchAll(new RegExp(`\\b${other}\\(((?:[^()]|\\([^()]*\\))*)\\)`, "g"))];
        if (!calls.length) continue;
        const before = h.reads.size;
        o.reads.forEach((r) => h.reads.add(r));
        // A called function that reads the parameter its caller names (loadSavedList → optionalId(url, "edit")).
        if (o.named !== null) for (const c of calls) h.reads.add(c[1].match(/,\s*"(\w+)"\s*$/)?.[1] ?? o.named);
        h.reads.delete("");
        if (h.reads.size !== before) changed = true;
      }
    }
  }
  return helpers;
}

/** The query parameters one route file reads, directly or through the helpers. */
function paramsRead(file: string, helpers: ReturnType<typeof libHelpers>): string[] {
  const text = readFileSync(path.join(routesDir, file), "utf8");
  const found = new Set([...text.matchAll(READ)].map((m) => m[1]));
  for (const [name, h] of helpers) {
    const calls = [...text.matchAll(new RegExp(`\\b${name}\\(((?:[^()]|\\([^()]*\\))*)\\)`, "g"))];
    if (!calls.length) continue;
    h.reads.forEach((r) => found.add(r));
    if (h.named !== null) {
      for (const c of calls) {
        const literal = c[1].match(/,\s*"(\w+)"\s*$/);
        const n = literal?.[1] ?? h.named;
        if (n) found.add(n);
      }
    }
  }
  // Route params of the file name ($param) are ids too, unless they are the splat ($).
  for (const m of file.matchAll(/\$(\w+)/g)) found.add(`$${m[1]}`);
  return [...found];
}

/** The URL of a route file (Remix flat routes: dots are slashes, a trailing _ leaves the parent's layout, [x] escapes). */
function urlOf(file: string): string {
  const name = file.replace(/\.(tsx|ts)$/, "");
  const segments = name.match(/(\[[^\]]*\]|[^.[\]]+)+/g) ?? [];
  const parts = segments
    .filter((s) => s !== "_index" && !s.startsWith("_"))
    .map((s) => s.replace(/_$/, "").replace(/\[([^\]]*)\]/g, "$1"));
  return `/${parts.join("/")}`;
}

/* ------------------------------------------------ HTTP ------------------------------------------------ */

type Page = { status: number; location: string | null; html: string };

async function get(url: string, cookie?: string): Promise<Page> {
  const res = await fetch(`${inject("baseUrl")}${url}`, {
    headers: cookie ? { Cookie: cookie } : {},
    redirect: "manual",
  });
  return { status: res.status, location: res.headers.get("location"), html: await res.text() };
}

/** Logs in through the login form, as a browser without JavaScript: the cookies of the session. */
async function loginForm(userName: string): Promise<string> {
  const page = await fetch(`${inject("baseUrl")}/g/main/Login/Logins`);
  const html = await page.text();
  const captchaKey = html.match(/name="captchaKey" value="([^"]+)"/)?.[1];
  expect(captchaKey, "the login form's captcha").toBeTruthy();
  const jar = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]);
  const first = jar(page);
  const res = await fetch(`${inject("baseUrl")}/g/main/Login/Logins`, {
    method: "POST",
    body: new URLSearchParams({
      username: userName,
      password: PASSWORD,
      captchaKey: captchaKey!,
      captcha: inject("testCaptcha"),
    }),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: first.join("; ") },
    redirect: "manual",
  });
  expect(res.status, "login redirects").toBe(302);
  const cookies = new Map([...first, ...jar(res)].map((c) => [c.split("=")[0], c]));
  return [...cookies.values()].join("; ");
}

/* ------------------------------------------------ the suite ------------------------------------------------ */

let A: World;
let B: World;
let cookie: string;
const figures = figuresOf(() => "security pages", { routes: 0, idParams: 0, requests: 0, anonymous: 0 });

beforeAll(async () => {
  const C = await publisher("pgc");
  A = await buildWorld("pga", C, "4242424242424242");
  B = await buildWorld("pgb", C, "5555555555554444");
  cookie = await loginForm(A.userName);
}, 300_000);

const routeFiles = () => readdirSync(routesDir).filter((f) => /\.tsx?$/.test(f));
const isId = (p: Param): p is IdParam => !("notId" in p);

const decoded = (x: string) => {
  try {
    return decodeURIComponent(x);
  } catch {
    return x;
  }
};

/** An id no record has. */
const unknownOf = (kind: Kind) =>
  kind === "payment" ? "RC20990101DEADBEEF" : kind === "setupRef" ? "cs_unknownunknownunknown" : "2147480000";
/** Near misses of an id: parsed leniently they are that id, so they must be refused like it. */
const nearMisses = (v: string | number) =>
  typeof v === "number" ? [`${v}x`, `0${v}`, `${v}.0`, `+${v}`] : [`${v}%20`, String(v).toLowerCase()];
/** Not ids at all (sent as written: some are percent-encoded on purpose). */
const MALFORMED = [
  "abc",
  "-5",
  "0",
  "99999999999999999999",
  "%00",
  "%F0%9F%98%80",
  "%ED%A0%80",
  "x%27%20OR%20%271%27=%271",
  "%3Cscript%3E",
];

describe("routes reading ids", () => {
  it("every query parameter a route file reads is classified (id of a kind, or not an id)", () => {
    const helpers = libHelpers();
    const unclassified: string[] = [];
    for (const file of routeFiles()) {
      for (const p of paramsRead(file, helpers)) if (!ROUTE_PARAMS[file]?.[p]) unclassified.push(`${file}: ?${p}`);
    }
    for (const [file, params] of Object.entries(ROUTE_PARAMS)) {
      if (!routeFiles().includes(file)) unclassified.push(`${file}: no such route file`);
      const read = routeFiles().includes(file) ? paramsRead(file, helpers) : [];
      for (const p of Object.keys(params))
        if (!read.includes(p)) unclassified.push(`${file}: ?${p} is listed but not read`);
    }
    expect(unclassified).toEqual([]);
  });

  it("A asking for B's, unknown and malformed ids: 404 or A's own page, never a 5xx, nothing of B's", async () => {
    const problems: string[] = [];
    for (const [file, params] of Object.entries(ROUTE_PARAMS)) {
      const ids = Object.entries(params).filter((e): e is [string, IdParam] => isId(e[1]));
      if (!ids.length) continue;
      figures.routes += 1;
      const url = urlOf(file);
      for (const [name, spec] of ids) {
        figures.idParams += 1;
        const variants: { label: string; query: Record<string, string>; foreign: boolean; malformed?: boolean }[] = [];
        // Near misses are refused like the id they resolve to (404), or like malformed values by a strict reader.
        const kinds = spec.by ? Object.entries(spec.by.kinds) : [[null, spec.kind] as const];
        for (const [disc, kind] of kinds) {
          const extra = { ...(spec.with?.(A) ?? {}), ...(disc && spec.by ? { [spec.by.param]: disc } : {}) };
          for (const v of B.ids[kind])
            variants.push({ label: `B's ${kind} ${v}`, query: { ...extra, [name]: String(v) }, foreign: true });
          for (const v of nearMisses(B.ids[kind][0]))
            variants.push({
              label: `near miss of B's ${kind}: "${v}"`,
              query: { ...extra, [name]: v },
              foreign: true,
              malformed: true,
            });
          variants.push({ label: `unknown ${kind}`, query: { ...extra, [name]: unknownOf(kind) }, foreign: false });
          for (const v of MALFORMED)
            variants.push({ label: `"${v}"`, query: { ...extra, [name]: v }, foreign: false, malformed: true });
        }
        for (const v of variants) {
          // Values are sent as written (some are already percent-encoded on purpose).
          const query = Object.entries(v.query)
            .map(([k, x]) => `${k}=${/%[0-9A-F]{2}/i.test(x) ? x : encodeURIComponent(x)}`)
            .join("&");
          const target = `${url}?${query}`;
          const page = await get(target, cookie);
          figures.requests += 1;
          const where = `${target} (${v.label})`;
          if (page.status >= 500) problems.push(`${where}: ${page.status}`);
          // The page may repeat what A typed into the URL (links back to it): only what A did not send is a leak.
          const sent = Object.values(v.query).map((x) => decoded(x).toLowerCase());
          const leaks = (html: string) =>
            leaksOf(html, B).filter((l) => !sent.some((x) => x.includes(l.replace(/^\S+ /, "").toLowerCase())));
          for (const leak of leaks(page.html)) problems.push(`${where}: shows B's ${leak}`);
          if (page.location && /Login/.test(page.location))
            problems.push(`${where}: A was sent to log in (${page.location})`);
          const refused = spec.statuses ?? [404];
          const allowed =
            spec.expect === "404"
              ? v.malformed
                ? [...refused, ...(spec.malformed ?? [])]
                : refused
              : [200, 302, 400, 404];
          if (!allowed.includes(page.status)) problems.push(`${where}: ${page.status}, expected ${allowed.join("/")}`);
          // Anonymous: the login page, never the record.
          if (v.foreign && variants.indexOf(v) === 0) {
            const anon = await get(target);
            figures.anonymous += 1;
            const toLogin = [302, 303].includes(anon.status) && /\/g\/main\/Login/.test(anon.location ?? "");
            if (!toLogin)
              problems.push(
                `${where} anonymously: ${anon.status} ${anon.location ?? ""}, expected a redirect to login`,
              );
            for (const leak of leaks(anon.html)) problems.push(`${where} anonymously: shows B's ${leak}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  }, 600_000);
});
