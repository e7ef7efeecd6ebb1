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
  children?: MenuEntry[];
};

export const MENU: MenuEntry[] = [
  { key: "home", to: "/g/home/index", navigation: 1 },
  {
    key: "userCenter",
    // SPEC §2: userCenter defaults to MyAccount.
    to: "/g/home/userCenter/MyAccount",
    navigation: 90,
    children: [
      { key: "myAccount", to: "/g/home/userCenter/MyAccount", navigation: 1 },
      { key: "myBills", to: "/g/home/userCenter/MyBills", navigation: 2 },
      { key: "messageCenter", to: "/g/home/userCenter/MessageCenter", navigation: 10 },
      { key: "changePassword", to: "/g/home/userCenter/ChangePassword", navigation: 20 },
    ],
  },
];

export function visibleMenu(role: "user" | "operator", entries: MenuEntry[] = MENU): MenuEntry[] {
  return entries
    .filter((e) => e.navigation > 0 && (!e.operatorOnly || role === "operator"))
    .sort((a, b) => a.navigation - b.navigation)
    .map((e) => (e.children ? { ...e, children: visibleMenu(role, e.children) } : e));
}

/**
 * The queues of the operations area (/g/home/operations, operators only; docs/decisions/005). Each
 * domain adds its queue here when its page works; the area's tabs and its menu entry come from this list.
 */
export type OperationsQueue = { key: string; to: string };
export const OPERATIONS_QUEUES: OperationsQueue[] = [];
