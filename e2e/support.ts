import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Locator, type Page, type TestInfo } from "@playwright/test";
import { demoTotpSecret, passSecondFactor } from "../tests/support/second-factor.ts";

export const CAPTCHA = "E2E1";
export const PASSWORD = "Tr4!n9#Go";

export type Mail = { to: string; subject: string; text: string; html?: string; date?: string };

/** A name unique to this test and project (js / nojs), valid as a username (letters then digits). */
export function uniqueUser(testInfo: TestInfo, prefix = "e2e") {
  const project = testInfo.project.name.replace(/[^a-z]/g, "");
  const stamp = Date.now()
    .toString(36)
    .replace(/[^a-z0-9]/g, "");
  const random = Math.random().toString(36).slice(2, 6);
  return `${prefix}${project}${stamp}${random}`.replace(/[^A-Za-z0-9]/g, "").slice(0, 25);
}

/** The mails the server wrote to DATA_DIR/outbox (the embedded default's mail transport). */
export function mailsTo(address: string): Mail[] {
  const dir = path.join(process.env.E2E_DATA_DIR ?? "", "outbox");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => {
      // A mail being written right now is read at the next poll.
      try {
        return JSON.parse(readFileSync(path.join(dir, f), "utf8")) as Mail;
      } catch {
        return null;
      }
    })
    .filter((m): m is Mail => m !== null && String(m.to).toLowerCase().includes(address.toLowerCase()));
}

export async function waitForMail(address: string, match: RegExp, after = 0): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      () => {
        found = mailsTo(address)
          .slice(after)
          .find((m) => match.test(m.text));
        return !!found;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

export function activationLink(mail: Mail): string {
  const link = mail.text.match(/https?:\/\/\S+\/g\/main\/UserActivation\?token=[A-Za-z0-9_-]+/);
  if (!link) throw new Error(`no activation link in: ${mail.text}`);
  return link[0];
}

async function post(request: APIRequestContext, p: string, data: unknown) {
  const res = await request.post(`/vueapi${p}`, { data });
  expect(res.status(), p).toBe(200);
  return (await res.json()) as { code: number; message: string; data: any };
}

/** Register and activate an individual account through the /vueapi protocol, for specs about other things. */
export async function createActiveUser(request: APIRequestContext, userName: string, password = PASSWORD) {
  const email = `${userName}@example.com`;
  const captcha = await post(request, "/anon/captcha/create", {});
  const registered = await post(request, "/anon/user/register", {
    payload: {
      userType: "1",
      userName,
      password,
      confirmPassword: password,
      realName: "测试用户",
      email,
      captchaKey: captcha.data.captchaKey,
      captcha: CAPTCHA,
      agreeTerms: "on",
      agreePrivacy: "on",
    },
  });
  expect(registered.code, JSON.stringify(registered)).toBe(0);
  const mail = await waitForMail(email, /UserActivation/);
  const token = new URL(activationLink(mail)).searchParams.get("token");
  const activated = await post(request, "/anon/user/activate", { token });
  expect(activated.code, JSON.stringify(activated)).toBe(0);
  return { userName, email, password };
}

/**
 * Signs `username` in without the login page, for a spec about something else: the page's own form posted over
 * HTTP in the page's context (its captcha key from the server-rendered form, the test captcha as the answer), so
 * the session cookie lands in the page's browser context; then the page opens the console home, as after `logIn`.
 * The login page itself, with and without JavaScript, is what e2e/login-*.spec.ts and `logIn` exercise: a
 * browser rendering it for every sign-in of every spec was about a sixth of the run's CPU.
 * Operators are not signed in this way (their second step is a page of its own): use `logIn`.
 */
export async function signInOverHttp(page: Page, username: string, password: string) {
  expect(demoTotpSecret(username), "an operator signs in through the login page").toBeUndefined();
  const form = await page.request.get("/g/main/Login/Logins");
  expect(form.status()).toBe(200);
  const captchaKey = /name="captchaKey" value="([^"]+)"/.exec(await form.text())?.[1];
  expect(captchaKey, "the login form's captcha key").toBeTruthy();
  const res = await page.request.post("/g/main/Login/Logins", {
    form: { username, password, captchaKey: captchaKey ?? "", captcha: CAPTCHA },
    maxRedirects: 0,
  });
  expect(res.status(), `login of ${username}: ${res.status()}`).toBe(302);
  await page.goto(res.headers()["location"] ?? "/g/home/index");
}

export async function logIn(page: Page, username: string, password: string, captcha = CAPTCHA) {
  await page.goto("/g/main/Login/Logins");
  await fillLogin(page, username, password, captcha);
}

/**
 * With JavaScript, waits until Remix has finished submitting and revalidating (a failed login reloads the
 * captcha and clears its field), so a step never types into a form that is about to be re-rendered.
 */
export async function settled(page: Page) {
  await page.waitForFunction(() => {
    const router = (
      window as unknown as { __remixRouter?: { state: { navigation: { state: string }; revalidation: string } } }
    ).__remixRouter;
    return !router || (router.state.navigation.state === "idle" && router.state.revalidation === "idle");
  });
}

/**
 * Passes the form's captcha (docs/decisions/061). With JavaScript the page solves the proof-of-work itself: this
 * waits until it has (nothing to type), or until its worker failed (see `imageCaptchaOnly`) and then types the
 * image's answer as without JavaScript, where `captcha` (by default the test captcha) goes into the field.
 */
export async function passCaptcha(page: Page, captcha = CAPTCHA, label = "Captcha") {
  if (test.info().project.name === "js") {
    const done = page.locator('[data-captcha-state="verified"], [data-captcha-state="failed"]');
    await expect(done).toBeVisible({ timeout: 30_000 });
    if ((await done.getAttribute("data-captcha-state")) === "verified") return;
  }
  await page.getByLabel(label, { exact: true }).fill(captcha);
}

/** Keeps the proof-of-work solver from loading, so a page with JavaScript falls back to the image captcha. */
export async function imageCaptchaOnly(page: Page) {
  await page.route("**/build/workers/**", (route) => route.abort());
}

export async function fillLogin(page: Page, username: string, password: string, captcha = CAPTCHA) {
  await settled(page);
  await page.getByLabel("Username or email").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await passCaptcha(page, captcha);
  await page.getByRole("button", { name: "Log in" }).click();
  // A demo operator goes on to the second step with its documented demo secret (docs/decisions/022).
  const secret = demoTotpSecret(username);
  if (secret && password === DEMO_PASSWORD) await giveSecondFactor(page, secret);
}

const DEMO_PASSWORD = "Demo12!@pass";

/**
 * The second step of an operator's login in the browser: a code of `secret` (computed with the backend's
 * library), the next one when the backend says a code was already used (tests/support/second-factor.ts).
 */
export async function giveSecondFactor(page: Page, secret: string) {
  await expect(page).toHaveURL(/\/g\/main\/Login\/TwoFactor$/);
  await passSecondFactor(
    secret,
    async (code) => {
      await settled(page);
      await page.getByLabel("Authentication code").fill(code);
      await page.getByRole("button", { name: "Verify" }).click();
      const field = page.locator("#two-factor .field-error, #two-factor [data-testid=form-error]");
      await expect
        .poll(async () => !new URL(page.url()).pathname.endsWith("/TwoFactor") || (await field.count()) > 0, {
          timeout: 15_000,
        })
        .toBe(true);
      if (!new URL(page.url()).pathname.endsWith("/TwoFactor")) return { code: 0, message: "" };
      const text = await field.first().innerText();
      return { code: 1, message: /already used/.test(text) ? "MSG_21003" : text };
    },
    Date.now,
    true,
    moreTimeForTheNextCode,
  );
}

/** Waiting for the next 30-second step is time the test did not spend on its own work: it gets it back. */
export function moreTimeForTheNextCode(ms: number) {
  test.info().setTimeout(test.info().timeout + ms + 5_000);
}

/**
 * An entry of a row's "More" menu (app/components/RowActions.tsx), opened first: with JavaScript a Headless
 * UI menu (role menuitem, anchored outside the row), without it a <details> inside the row.
 */
export async function rowMenuItem(page: Page, row: Locator, name: string) {
  const js = test.info().project.use.javaScriptEnabled !== false;
  // With JavaScript the button is the Headless UI menu's once the page has hydrated.
  if (js) await expect(row.getByTestId("row-more")).toHaveAttribute("aria-haspopup", "menu");
  await row.getByTestId("row-more").click();
  if (js) return page.getByRole("menu").getByRole("menuitem", { name, exact: true });
  const menu = row.getByTestId("row-menu");
  return menu.getByRole("link", { name, exact: true }).or(menu.getByRole("button", { name, exact: true }));
}

/**
 * Takes a decision on an operations queue item (DecisionForm of app/components/ReviewRow.tsx) and confirms
 * it: the item's main button, or its entry of the "More" menu (`inMenu`); then the confirmation, named after
 * the decision: the dialog with JavaScript, the confirm step without (also with JavaScript when the click came
 * before hydration). `refused`: the decision is refused before it is confirmed (comments missing), which
 * without JavaScript answers at the row with no confirm step.
 */
export async function decideInQueue(
  page: Page,
  row: Locator,
  decision: string,
  { inMenu = false, refused = false }: { inMenu?: boolean; refused?: boolean } = {},
) {
  const js = test.info().project.use.javaScriptEnabled !== false;
  if (inMenu) await (await rowMenuItem(page, row, decision)).click();
  else await row.getByRole("button", { name: decision, exact: true }).click();
  if (!js && refused) return;
  await page
    .getByRole("alertdialog", { name: decision, exact: true })
    .getByRole("button", { name: "Confirm", exact: true })
    .click();
}
