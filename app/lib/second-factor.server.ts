import { redirect } from "@remix-run/node";
import { apiFor, getViewer, SECOND_FACTOR_PAGES, type Api, type PendingLogin, type Viewer } from "./api.server.ts";
import { commitSession, destroySession, getSession, safeReturnTo } from "./session.server.ts";

/**
 * The operators' second step of a login (docs/decisions/022): the pages /g/main/Login/TwoFactorSetup
 * (enrol) and /g/main/Login/TwoFactor (a code), reached only between the password and the second factor.
 */
export async function requirePendingLogin(
  request: Request,
  step: PendingLogin["step"],
): Promise<{ viewer: Viewer; pending: PendingLogin; api: Api }> {
  const viewer = await getViewer(request);
  const pending = viewer.pending;
  if (!pending) throw redirect(viewer.user ? "/g/home/index" : "/g/main/Login/Logins");
  if (pending.step !== step) throw redirect(SECOND_FACTOR_PAGES[pending.step]);
  // The token opens only the two-factor paths (and logout) until the step is passed.
  return { viewer, pending, api: apiFor(request, { ...viewer, token: pending.token }) };
}

/** The second step passed: the session becomes a full one. Answers its cookie and the page to go on to. */
export async function completeLogin(request: Request): Promise<{ cookie: string; returnTo: string }> {
  const session = await getSession(request);
  const returnTo = safeReturnTo(session.get("returnTo"));
  session.unset("returnTo");
  session.unset("secondFactor");
  return { cookie: await commitSession(session), returnTo };
}

/** The operator gives up: the backend revokes the token, the browser forgets the session. */
export async function cancelLogin(request: Request, api: Api): Promise<Response> {
  await api.call("/main/user/logout", {}).catch(() => undefined);
  const session = await getSession(request);
  return redirect("/g/main/Login/Logins", { headers: { "Set-Cookie": await destroySession(session) } });
}

/** An operator who enrolled in another tab meanwhile: this login goes on to the code step. */
export async function toVerifyStep(request: Request): Promise<Response> {
  const session = await getSession(request);
  session.set("secondFactor", "verify");
  return redirect(SECOND_FACTOR_PAGES.verify, { headers: { "Set-Cookie": await commitSession(session) } });
}
