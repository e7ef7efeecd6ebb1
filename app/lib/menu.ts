import { roleMay, type Permission, type TeamRole } from "#contract/team-roles.ts";

/**
 * The left menu of /g/home (SPEC §2 "entries with navigation>0"). An entry is listed only when its page
 * works: areas of later issues add their entries here as they are built.
 */
export type MenuEntry = {
  key: string;
  to: string;
  /** SPEC §2: shown in the left menu when > 0; the number orders the entries. */
  navigation: number;
  operatorOnly?: boolean;
  /** Not shown to operators (the overview: an operator's landing is the Operations entry's page). */
  userOnly?: boolean;
  /** Also current on the pages under this path (an operator's Operations: the landing and every queue). */
  currentUnder?: string;
  /** Shown only to the roles that have this permission in the account the session acts for (issue 33). */
  permission?: Permission;
  /**
   * SPEC §2: OnlineHelp, Documentation and the source-repository entry open in a new window instead of
   * navigating: the shell renders the entry as a link with target=_blank rel=noopener.
   */
  newWindow?: boolean;
  children?: MenuEntry[];
  /** Set by visibleMenu: current only on its own path, because another entry's page lies under it. */
  exact?: boolean;
};

export const MENU: MenuEntry[] = [
  { key: "home", to: "/g/home/index", navigation: 1, userOnly: true },
  {
    key: "permissionedServices",
    to: "/g/home/PermissionedServices/PublishedServices",
    navigation: 10,
    children: [
      { key: "publishedServices", to: "/g/home/PermissionedServices/PublishedServices", navigation: 10 },
      { key: "participatedServices", to: "/g/home/ParticipatedServices", navigation: 20 },
      { key: "participationManagement", to: "/g/home/ParticipationManagement", navigation: 30 },
      { key: "myCertificates", to: "/g/home/MyCertificates", navigation: 40 },
      { key: "testServices", to: "/g/home/TestServices", navigation: 50 },
      { key: "configuration", to: "/g/home/Configuration", navigation: 50 },
    ],
  },
  {
    key: "permissionlessServices",
    to: "/g/home/PermissionlessServices",
    navigation: 15,
    children: [
      { key: "publicChainNodes", to: "/g/home/PermissionlessServices", navigation: 10 },
      { key: "publicChainHome", to: "/g/home/PermissionlessServices/Home", navigation: 20 },
      { key: "ddc", to: "/g/home/DDC", navigation: 30 },
    ],
  },
  {
    // Issue 30 item 5: every entry sits under a heading that names it.
    key: "networkServices",
    to: "/g/home/PrivatedNodes",
    navigation: 16,
    children: [
      { key: "privatedNodes", to: "/g/home/PrivatedNodes", navigation: 10 },
      { key: "ipfs", to: "/g/home/IPFS", navigation: 20 },
      { key: "did", to: "/g/home/DID", navigation: 30 },
      { key: "interchainServices", to: "/g/home/CrossChainService/Index", navigation: 40 },
    ],
  },
  {
    key: "appStore",
    to: "/g/home/AppStore/Services",
    navigation: 20,
    children: [
      { key: "storeServices", to: "/g/home/AppStore/Services", navigation: 10 },
      { key: "storeProducts", to: "/g/home/AppStore/Products", navigation: 20 },
      { key: "myProducts", to: "/g/home/AppStore/MyProducts", navigation: 30 },
    ],
  },
  {
    // SPEC §2 DeveloperCommunity (default News_Events): its tabs are these children (docs/decisions/040).
    key: "developerCommunity",
    to: "/g/home/DeveloperCommunity/News_Events",
    navigation: 80,
    children: [
      // OnlineHelp, Documentation and the source repository open in a new window (SPEC §2; docs/decisions/042).
      { key: "onlineHelp", to: "/g/main/documentation?page=getting-started", navigation: 5, newWindow: true },
      { key: "newsEvents", to: "/g/home/DeveloperCommunity/News_Events", navigation: 10 },
      { key: "ide", to: "/g/home/IDEServices", navigation: 20 },
      { key: "chaincodeMarket", to: "/g/home/DeveloperCommunity/ChaincodeMarket", navigation: 30 },
      { key: "technicalSupport", to: "/g/home/DeveloperCommunity/TechnicalSupport", navigation: 50 },
      { key: "releaseNotes", to: "/g/home/DeveloperCommunity/ReleaseNotes", navigation: 60 },
      { key: "documentation", to: "/g/main/documentation", navigation: 70, newWindow: true },
      // Its address is the deployment's (SOURCE_REPOSITORY_URL): without one the entry is not shown (withSourceRepository).
      { key: "sourceRepository", to: "", navigation: 80, newWindow: true },
    ],
  },
  {
    key: "userCenter",
    // SPEC §2: userCenter defaults to MyAccount.
    to: "/g/home/userCenter/MyAccount",
    navigation: 90,
    children: [
      { key: "myAccount", to: "/g/home/userCenter/MyAccount", navigation: 1 },
      { key: "myBills", to: "/g/home/userCenter/MyBills", navigation: 2 },
      { key: "invoices", to: "/g/home/userCenter/Invoices", navigation: 3 },
      { key: "alerts", to: "/g/home/userCenter/Alerts", navigation: 4 },
      { key: "information", to: "/g/home/userCenter/information", navigation: 5 },
      { key: "contactInformation", to: "/g/home/userCenter/ContactInformation", navigation: 6 },
      { key: "certification", to: "/g/home/userCenter/certification", navigation: 7 },
      { key: "messageCenter", to: "/g/home/userCenter/MessageCenter", navigation: 10 },
      { key: "members", to: "/g/home/userCenter/Members", navigation: 8, permission: "members" },
      { key: "activity", to: "/g/home/userCenter/Activity", navigation: 9 },
      { key: "changePassword", to: "/g/home/userCenter/ChangePassword", navigation: 20 },
    ],
  },
  // An operator's landing is /g/home/index (SPEC §2), which renders their queues by group (issue 30 item 4): Operations
  // leads there and is current on it and on every queue; the customer's Overview is not theirs.
  {
    key: "operations",
    to: "/g/home/index",
    currentUnder: "/g/home/operations",
    navigation: 95,
    operatorOnly: true,
  },
];

/** The source-repository entry gets the deployment's address, or is left out when there is none. */
export function withSourceRepository(entries: MenuEntry[], url: string | undefined): MenuEntry[] {
  return entries.flatMap((e) => {
    if (e.key === "sourceRepository") return url ? [{ ...e, to: url }] : [];
    return [e.children ? { ...e, children: withSourceRepository(e.children, url) } : e];
  });
}

/**
 * The entries a role sees, in order; an entry with a `permission` only for the member roles that have it
 * (issue 33: the menu hides what the role cannot open). An operator's own entries come first (issue 30 item 4: their work is not
 * buried under the customer's menu). An entry with another entry's page under its path is current only on its own
 * path; every other entry stays current on the pages under it (a queue under Operations, a service under IPFS).
 */
export function visibleMenu(
  role: "user" | "operator",
  entries: MenuEntry[] = MENU,
  teamRole: TeamRole = "owner",
): MenuEntry[] {
  const paths = allPaths(entries);
  const visible = (list: MenuEntry[]): MenuEntry[] =>
    list
      .filter(
        (e) => e.navigation > 0 && (!e.operatorOnly || role === "operator") && !(e.userOnly && role === "operator"),
      )
      .filter((e) => !e.permission || roleMay(teamRole, e.permission))
      .sort((a, b) => Number(!!b.operatorOnly) - Number(!!a.operatorOnly) || a.navigation - b.navigation)
      .map((e) => ({
        ...e,
        exact: paths.some((p) => p.startsWith(`${e.to}/`)),
        ...(e.children ? { children: visible(e.children) } : {}),
      }));
  return visible(entries);
}

/**
 * The console shell's menu for a role, a member role and the deployment's source repository: built once per
 * combination and kept (docs/decisions/030, addendum of issue 34), since it depends on nothing else. The
 * entries are never changed after they are made; the shell's loader only serialises them.
 */
const shellMenus = new Map<string, MenuEntry[]>();
export function shellMenu(role: "user" | "operator", teamRole: TeamRole, sourceRepositoryUrl: string | undefined) {
  const key = `${role}|${teamRole}|${sourceRepositoryUrl ?? ""}`;
  let menu = shellMenus.get(key);
  if (!menu) {
    menu = withSourceRepository(visibleMenu(role, MENU, teamRole), sourceRepositoryUrl);
    // Few keys in practice (2 roles × 5 member roles × one address); bounded anyway.
    if (shellMenus.size >= 100) shellMenus.clear();
    shellMenus.set(key, menu);
  }
  return menu;
}

const allPaths = (entries: MenuEntry[]): string[] =>
  entries.flatMap((e) => [e.to, ...(e.children ? allPaths(e.children) : [])]);

/**
 * The queues of the operations area (/g/home/operations, operators only; docs/decisions/005). Each
 * domain adds its queue here when its page works; the area's tabs and its menu entry come from this list.
 */
export type OperationsGroup = "reviews" | "money" | "content" | "platform";
export type OperationsQueue = {
  key: string;
  to: string;
  group: OperationsGroup;
  /** Shown only when the chains run on nodes by URL (CHAIN_NODES or CHAIN_RPC_URL; docs/decisions/094 addendum). */
  onNodesOnly?: true;
};
/** The queues by what operators do there (issue 30 item 4): the landing and the area's tabs show them so. */
export const OPERATIONS_GROUPS: OperationsGroup[] = ["reviews", "money", "content", "platform"];
export const OPERATIONS_QUEUES: OperationsQueue[] = [
  { key: "titles.serviceReviews", to: "/g/home/operations/ServiceReviews", group: "reviews" },
  { key: "titles.configUpgradeReviews", to: "/g/home/operations/ConfigUpgrades", group: "reviews" },
  { key: "titles.participationReviews", to: "/g/home/operations/Participations", group: "reviews" },
  { key: "titles.productReviews", to: "/g/home/operations/Products", group: "reviews" },
  { key: "titles.ipfsUpgradeReviews", to: "/g/home/operations/IpfsUpgrades", group: "reviews" },
  { key: "titles.crossChainReviews", to: "/g/home/operations/CrossChainReviews", group: "reviews" },
  { key: "titles.opsCredentials", to: "/g/home/operations/Credentials", group: "reviews" },
  { key: "titles.certificationReviews", to: "/g/home/operations/Certifications", group: "reviews" },
  { key: "titles.supportTickets", to: "/g/home/operations/Tickets", group: "reviews" },
  { key: "titles.paymentReviews", to: "/g/home/operations/PaymentReviews", group: "money" },
  { key: "titles.remittances", to: "/g/home/operations/Remittances", group: "money" },
  { key: "titles.withdrawals", to: "/g/home/operations/Withdrawals", group: "money" },
  { key: "titles.refundReviews", to: "/g/home/operations/Refunds", group: "money" },
  { key: "menu.invoices", to: "/g/home/operations/Invoices", group: "money" },
  { key: "titles.prices", to: "/g/home/operations/Prices", group: "money" },
  { key: "titles.opsNews", to: "/g/home/operations/News", group: "content" },
  { key: "titles.opsAnnouncements", to: "/g/home/operations/Announcements", group: "content" },
  { key: "titles.opsReleaseNotes", to: "/g/home/operations/ReleaseNotes", group: "content" },
  { key: "titles.opsDocs", to: "/g/home/operations/Documentation", group: "content" },
  { key: "titles.opsLegal", to: "/g/home/operations/LegalTexts", group: "content" },
  { key: "titles.opsMarket", to: "/g/home/operations/ChaincodeMarket", group: "content" },
  { key: "titles.opsPartners", to: "/g/home/operations/Partners", group: "content" },
  { key: "titles.newsletter", to: "/g/home/operations/Newsletter", group: "content" },
  { key: "titles.runningServices", to: "/g/home/operations/Services", group: "platform" },
  { key: "titles.failedJobs", to: "/g/home/operations/FailedJobs", group: "platform" },
  { key: "titles.testNetwork", to: "/g/home/operations/TestNetwork", group: "platform" },
  { key: "titles.chainNodes", to: "/g/home/operations/ChainNodes", group: "platform", onNodesOnly: true },
  { key: "titles.auditLog", to: "/g/home/operations/AuditLog", group: "platform" },
];

/** The queues this server shows: the chain nodes' page only when the chains run on nodes by URL. */
export const operationsQueues = (chainsOnNodes: boolean): OperationsQueue[] =>
  OPERATIONS_QUEUES.filter((q) => chainsOnNodes || !q.onNodesOnly);
