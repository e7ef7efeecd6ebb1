/**
 * SPEC §2: mobile devices may reach only index, documentation, contactUs, Login (and its children),
 * the ddc pages and account-binding. Everything else tells them to use a desktop.
 */
const MOBILE_PATHS = [
  /^\/g\/main\/index\/?$/,
  /^\/g\/main\/documentation(\/api)?\/?$/,
  /^\/g\/main\/contactUs\/?$/,
  /^\/g\/main\/Login(\/.*)?$/,
  /^\/g\/main\/ddc-(QRCode|view)\/?$/,
  /^\/g\/main\/account-binding\/?$/,
  /^\/g\/lang\/?$/,
];

export function isMobileAllowed(pathname: string): boolean {
  return MOBILE_PATHS.some((re) => re.test(pathname));
}
