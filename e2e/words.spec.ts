import { readFileSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { axeIdle } from "./axe.ts";
import { expect, ready, test } from "./fixtures.ts";
import { logInAs, OPERATOR } from "./services-support.ts";
import { createActiveUser, logIn, PASSWORD, settled, uniqueUser } from "./support.ts";
import { logInAs as logInToWizard, PNG } from "./wizard-support.ts";
import { ALLOWED_ENGLISH } from "./words-allowed.ts";

/**
 * Issue 30 items 1-3, as people meet them:
 * 1. no raw translation key is ever painted: the console (a customer and the operator) and the public pages
 *    walked by client-side navigation (menu links, never page.goto), in English and Chinese; a watcher installed
 *    before the first page records every text node that looks like a key the moment it is inserted, so a
 *    key shown for 100 ms fails as surely as one that stays; on each page, once loaded, no word the glossary
 *    (locales/glossary.json) says to avoid, and on a Chinese page no English outside user data (marked
 *    `data-user-content` in the markup), code, text marked with another `lang`, and the allow-list of
 *    e2e/words-allowed.ts. One browser context per language and role; the JS project only, as a client-side
 *    walk needs JavaScript (the nojs project renders the same markup on the server);
 * 2. a flash is shown once, on the page it was meant for: the operator's "Two-step verification passed" does not
 *    follow them, the wizard's "Saved." does not sit above a refused next step;
 * 3. the IDE's compile errors are errors: red and announced, marked at their line, and nothing to deploy.
 */

/** Text that looks like an i18n key ("list.title", "cycles.2", "home:console.breadcrumb"). */
const KEY = "^[a-z][A-Za-z0-9]*(\\.[A-Za-z0-9_-]+)+$";
const NS_KEY = "^[a-z][A-Za-z0-9]*:[a-z][A-Za-z0-9]*(\\.[A-Za-z0-9_-]+)*$";
/** Text of that shape that is not a key: versions, file and host names. */
const ALLOWED = "^v?\\d|\\.(sol|json|md|txt|zip|js|ts|png|svg|pdf|com|cn|org|net|io|example|local|invalid|test)$";

type Seen = { text: string; where: string };

/**
 * Runs in the page before its first byte is parsed: records each key-like text node as it is inserted or
 * changed (outside user data, `data-user-content`, and code), and offers a scan of what is on screen now.
 */
function watchForKeys({ key, nsKey, allowed }: { key: string; nsKey: string; allowed: string }) {
  const patterns = [new RegExp(key), new RegExp(nsKey)];
  const except = new RegExp(allowed, "i");
  const skip = "[data-user-content], script, style, textarea, pre, code, noscript, .cm-editor";
  const seen: Seen[] = [];
  const keyLike = (node: Node) => {
    const text = (node.textContent ?? "").trim();
    if (!text || text.length > 100 || except.test(text) || !patterns.some((p) => p.test(text))) return null;
    if (node.parentElement?.closest(skip)) return null;
    return text;
  };
  const textsIn = (root: Node): Node[] => {
    if (root.nodeType === Node.TEXT_NODE) return [root];
    if (root.nodeType !== Node.ELEMENT_NODE && root.nodeType !== Node.DOCUMENT_NODE) return [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const out: Node[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) out.push(n);
    return out;
  };
  const record = (node: Node) => {
    for (const text of textsIn(node)) {
      const found = keyLike(text);
      if (found) seen.push({ text: found, where: location.pathname + location.search });
    }
  };
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "characterData") record(r.target);
      else r.addedNodes.forEach(record);
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
  const w = window as unknown as { __keysSeen: Seen[]; __keysNow: () => string[] };
  w.__keysSeen = seen;
  w.__keysNow = () => textsIn(document).flatMap((n) => keyLike(n) ?? []);
}

async function watch(page: Page) {
  await page.addInitScript(watchForKeys, { key: KEY, nsKey: NS_KEY, allowed: ALLOWED });
}

const keysNow = (page: Page) => page.evaluate(() => (window as unknown as { __keysNow: () => string[] }).__keysNow());
const keysSeen = (page: Page) => page.evaluate(() => (window as unknown as { __keysSeen: Seen[] }).__keysSeen);

type Term = { en: string; "zh-CN": string; avoid: string[] };
/** The glossary's words to avoid, per language (a word that is the term's own word in that language is not). */
const AVOID = (() => {
  const terms = Object.values(
    JSON.parse(readFileSync(new URL("../locales/glossary.json", import.meta.url), "utf8")) as Record<string, unknown>,
  ).filter((t): t is Term => typeof t === "object" && t !== null);
  const avoid = (lng: "en" | "zh-CN") =>
    terms.flatMap((t) => t.avoid.filter((w) => w.toLowerCase() !== t[lng].toLowerCase()));
  return { en: avoid("en"), "zh-CN": avoid("zh-CN") };
})();

type Finding = { what: string; text: string; where: string; in: string };

/**
 * The words on screen now that a reader should not meet: in Chinese, English outside user data
 * (`data-user-content`), code and the allow-list (e2e/words-allowed.ts); in both languages, a word the glossary
 * says to avoid. Text nodes and the texts people and assistive technology read from attributes.
 */
function wordsNow({ lng, allowed, avoid }: { lng: string; allowed: string[]; avoid: string[] }): Finding[] {
  const skip =
    "[data-user-content], script, style, textarea, pre, code, kbd, samp, noscript, .font-mono, .cm-editor, [data-testid=test-mode-banner]";
  const allow = new Set(allowed);
  const found: Finding[] = [];
  const where = location.pathname + location.search;
  const describe = (el: Element | null) => {
    if (!el) return "";
    const id = el.closest("[data-testid]")?.getAttribute("data-testid");
    return `${el.tagName.toLowerCase()}${id ? ` in [data-testid=${id}]` : ""}`;
  };
  const check = (raw: string, el: Element | null) => {
    const text = raw.replace(/\s+/g, " ").trim();
    if (!text || !el || el.closest(skip)) return;
    // Text marked as another language (the language switch, an English fallback) is said in that language.
    const marked = el.closest("[lang]")?.getAttribute("lang");
    if (marked && marked !== lng) return;
    for (const word of avoid)
      if (text.includes(word))
        found.push({ what: `avoid "${word}"`, text: text.slice(0, 120), where, in: describe(el) });
    if (lng !== "zh-CN") return;
    const plain = text
      .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, " ") // addresses
      .replace(/\S+@\S+/g, " ") // e-mail addresses
      .replace(/\b0x[0-9a-f]+\b/gi, " ") // hashes and chain addresses
      .replace(/\S*\/\S*/g, " ") // paths
      .replace(/US\$/g, " ") // dollars as zh-CN's Intl formats them
      .replace(/\b(?=[A-Z0-9-]*\d)[A-Z0-9]+(?:-[A-Z0-9]+)*\b/g, " ") // record numbers (PC2026…, PC-BJ-01)
      .replace(/\b\w*_\w*\b/g, " ") // code identifiers (package and function names)
      .replace(/\b(YYYY|MM|DD)(-(YYYY|MM|DD))+\b/g, " ") // date formats
      .replace(/\b[\w-]+\.(sol|json|md|txt|zip|js|ts|go|java|png|jpg|svg|pdf|tar|gz|pem|crt|key)\b/gi, " ");
    for (const [word] of plain.matchAll(/[A-Za-z][A-Za-z0-9]*(?:[.'-][A-Za-z0-9]+)*/g)) {
      if (allow.has(word) || word.split(/[.-]/).every((part) => allow.has(part) || /^\d+$/.test(part))) continue;
      found.push({ what: `English "${word}"`, text: text.slice(0, 120), where, in: describe(el) });
    }
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) check(n.textContent ?? "", n.parentElement);
  for (const el of document.body.querySelectorAll("[placeholder], [aria-label], [title], img[alt]"))
    for (const name of ["placeholder", "aria-label", "title", "alt"]) {
      const value = el.getAttribute(name);
      // A label that names a record by what its user called it ("Details of <name>") is user data.
      if (value && !(name === "aria-label" && el.hasAttribute("data-user-label"))) check(value, el);
    }
  return found;
}

/** What `wordsNow` finds on the page now, once per word and page. */
async function wordsOn(page: Page, lng: "en" | "zh-CN"): Promise<Finding[]> {
  const found = await page.evaluate(wordsNow, { lng, allowed: [...ALLOWED_ENGLISH], avoid: AVOID[lng] });
  const once = new Map(found.map((f) => [`${f.where} ${f.what}`, f]));
  return [...once.values()];
}

/** Marks the document: still marked after a walk means every step was a client-side navigation. */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { __walk: number }).__walk = 1));
const marked = (page: Page) => page.evaluate(() => (window as unknown as { __walk?: number }).__walk === 1);

/** The same-window links of a navigation, by address, once each. */
async function linksOf(nav: Locator): Promise<string[]> {
  const hrefs = await nav
    .locator("a[href^='/']:not([target=_blank])")
    .evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
  return [...new Set(hrefs)];
}

/**
 * Follows each link of `hrefs` (found under `scope`) by clicking it; after each, on the first paint of the new
 * page and again once the network is quiet, no key is on screen, and the page is not an error page; once loaded,
 * the words `wordsNow` finds are added to `words`. Each page is left only once axe's watch is done with it
 * (e2e/axe.ts): a page left mid-analysis had its analysis thrown away, so the walk paid for an analysis of nearly
 * every page and kept the last one's (docs/decisions/104).
 */
async function walk(page: Page, scope: string, hrefs: string[], lng: "en" | "zh-CN", words: Finding[]) {
  words.push(...(await wordsOn(page, lng)));
  await axeIdle(page);
  for (const href of hrefs) {
    await page.locator(`${scope} a[href="${href}"]`).first().click();
    const target = new URL(href, "http://portal.invalid").pathname;
    await expect(page).toHaveURL((u) => u.pathname === target || u.pathname.startsWith(`${target}/`));
    expect(await keysNow(page), `keys on ${href} as it opened`).toEqual([]);
    await settled(page);
    await page.waitForLoadState("networkidle");
    expect(await keysNow(page), `keys on ${href} once loaded`).toEqual([]);
    // A page that failed to render has no keys either: each one renders its own content.
    await expect(page.getByTestId("error-view"), `${href} renders`).toHaveCount(0);
    words.push(...(await wordsOn(page, lng)));
    await axeIdle(page);
  }
}

/** The findings as one readable list (a failure names every word and where it was, not only the first). */
const listed = (words: Finding[]) => [...new Set(words.map((f) => `${f.where} ${f.what} (${f.in}): ${f.text}`))];

/** Switches the page's language with its own link (a document load, as without JavaScript). */
async function switchTo(page: Page, lng: "en" | "zh-CN") {
  await page.locator(`a[hreflang="${lng}"]`).first().click();
  await expect(page.locator("html")).toHaveAttribute("lang", lng);
  await ready(page);
}

test.describe("no raw keys on client-side navigation", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "client-side navigation needs JavaScript");

  for (const lng of ["en", "zh-CN"] as const) {
    test(`the public pages (${lng})`, async ({ page }) => {
      test.setTimeout(180_000);
      await watch(page);
      await page.goto("/g/main/index");
      if (lng !== "en") await switchTo(page, lng);
      await mark(page);
      const words: Finding[] = [];
      await walk(page, "header nav", await linksOf(page.locator("header nav").first()), lng, words);
      expect(await marked(page), "the public pages were reached without a page load").toBe(true);
      expect(await keysSeen(page)).toEqual([]);
      expect(listed(words)).toEqual([]);
    });

    test(`a customer's console (${lng})`, async ({ page }) => {
      test.setTimeout(360_000);
      await watch(page);
      // Logging in lands on the overview by client-side navigation (its breadcrumb was "console.breadcrumb").
      await logInAs(page, "democompany", "Demo12!@pass");
      expect(await keysSeen(page)).toEqual([]);
      if (lng !== "en") await switchTo(page, lng);
      await mark(page);
      const words: Finding[] = [];
      await walk(page, "aside nav", await linksOf(page.locator("aside nav")), lng, words);
      expect(await marked(page), "the console was walked without a page load").toBe(true);
      expect(await keysSeen(page)).toEqual([]);
      expect(listed(words)).toEqual([]);
    });

    test(`the operator's console and operations (${lng})`, async ({ page }) => {
      test.setTimeout(480_000);
      await watch(page);
      await logInAs(page, OPERATOR.userName, OPERATOR.password);
      if (lng !== "en") await switchTo(page, lng);
      await mark(page);
      const words: Finding[] = [];
      await walk(page, "aside nav", await linksOf(page.locator("aside nav")), lng, words);
      // Operations leads to the operator's landing (their queues by group); a queue opens the operations area.
      await page.locator("aside nav a[href='/g/home/index']").click();
      await page.getByTestId("dash-queue-ServiceReviews").click();
      await expect(page).toHaveURL(/\/g\/home\/operations\//);
      // The operations tabs (a queue's own filters, "?queue=…", are links of that page only). The address changes
      // before the new page has rendered: wait until its tabs are there, then read them.
      const operationTabs = async () =>
        (await linksOf(page.locator("main nav"))).filter(
          (h) => h.startsWith("/g/home/operations/") && !h.includes("?"),
        );
      await expect.poll(async () => (await operationTabs()).length).toBeGreaterThan(5);
      const tabs = await operationTabs();
      await walk(page, "main nav", tabs, lng, words);
      expect(await marked(page), "the operator's console was walked without a page load").toBe(true);
      expect(await keysSeen(page)).toEqual([]);
      expect(listed(words)).toEqual([]);
    });
  }
});

test("a flash is shown once: the operator's two-step verification does not follow them", async ({
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(120_000);
  if (javaScriptEnabled) await watch(page);
  // The whole login (password, then the second step), not the saved session of logInAs.
  await page.context().clearCookies();
  await logIn(page, OPERATOR.userName, OPERATOR.password);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  await expect(page.getByTestId("flash")).toHaveText("Two-step verification passed. Welcome back.");
  await page.locator("aside nav a[href='/g/home/userCenter/MyAccount']").click();
  await expect(page).toHaveURL(/\/g\/home\/userCenter\/MyAccount$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId("flash")).toHaveCount(0);
  await page.locator("aside nav a[href='/g/home/index']").click();
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  await expect(page.getByTestId("flash")).toHaveCount(0);
  await page.getByTestId("dash-queue-ServiceReviews").click();
  await expect(page).toHaveURL(/\/g\/home\/operations\//);
  await expect(page.getByTestId("flash")).toHaveCount(0);
  if (javaScriptEnabled) {
    // Back on the page it was shown on, it is not shown again.
    await page.goBack();
    await expect(page).toHaveURL(/\/g\/home\/index$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/g\/home\/userCenter\/MyAccount$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/g\/home\/index$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByTestId("flash")).toHaveCount(0);
    expect(await keysSeen(page)).toEqual([]);
  }
});

test("the wizard's 'Saved.' does not sit above a refused next step; its breadcrumb is words", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(120_000);
  if (javaScriptEnabled) await watch(page);
  const user = await createActiveUser(request, uniqueUser(testInfo, "words"));
  await logInToWizard(page, user.userName, javaScriptEnabled);
  // By links from the overview: the list, then its "new service" button.
  await page.locator("aside nav a[href='/g/home/PermissionedServices/PublishedServices']").click();
  await page.locator("a[href$='NewServices?appState=add']").first().click();
  await expect(page).toHaveURL(/step=basic/);
  await expect(page.getByRole("navigation", { name: "Breadcrumbs" })).toHaveText(
    /Permissioned services\s*\/\s*Published services\s*\/\s*Create a new service/,
  );

  await page.getByLabel("Service name").fill(`Words ${user.userName}`);
  await page.getByLabel("Version", { exact: true }).fill("1.0.0");
  await page.getByLabel("Industry").selectOption("finance");
  await page.getByLabel("Framework").selectOption("fabric");
  await page.getByLabel("Platform type").selectOption("web");
  await page.getByLabel("Description").fill("d");
  await page.getByLabel("Introduction").fill("i");
  await page.getByLabel("Contact name").fill("Li Lei");
  await page.getByLabel("Contact mobile").fill("+8613912345678");
  await page.getByLabel("Contact email").fill("li@example.com");
  await page.getByLabel("Web URL").fill("https://trade.example.com");
  await page
    .getByLabel("Cover", { exact: true })
    .setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page).toHaveURL(/step=packages/);
  await expect(page.getByTestId("flash")).toBeVisible();

  // A refused package (a bad name): its error is shown, the step-1 message is not.
  await page.getByLabel("Package name").fill("1bad");
  await page.getByLabel("Package version").fill("1.0.0");
  await page.getByLabel("Main function path").fill("asset/index.js");
  await page.getByRole("button", { name: "Upload package" }).click();
  await expect(
    page.getByText("Start with a letter or underscore; 4-16 letters, digits or underscores.").first(),
  ).toBeVisible();
  await expect(page.getByTestId("flash")).toHaveCount(0);
  if (javaScriptEnabled) expect(await keysSeen(page)).toEqual([]);
});

const FILE = "contracts/SimpleStorage.sol";

async function setSource(page: Page, javaScriptEnabled: boolean, text: string) {
  if (javaScriptEnabled) {
    const editor = page.locator(".cm-content");
    await expect(editor).toBeVisible();
    await editor.click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.press("Delete");
    await page.keyboard.insertText(text);
  } else {
    await page.getByRole("textbox", { name: `Content of ${FILE}` }).fill(text);
  }
}

test("the IDE's compile errors are errors: red, at their line, and nothing to deploy", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(180_000);
  if (javaScriptEnabled) await watch(page);
  const user = await createActiveUser(request, uniqueUser(testInfo, "wordside"));
  await logInAs(page, user.userName, PASSWORD);
  await page.locator("aside nav a[href='/g/home/IDEServices']").click();
  await page.getByLabel("Name").fill("Words lab");
  await page.getByLabel(/Simple storage/).check();
  await page.getByRole("button", { name: "Create and open" }).click();
  await expect(page).toHaveURL(/\/ide\/portal\?workspaceId=\d+/);
  await expect(page.getByTestId("editor-file")).toHaveText(FILE);
  const original = await page.locator("textarea[name=content]").inputValue();

  // A good build first: the deployment form offers it.
  await page.getByRole("button", { name: "Save and compile" }).click();
  const flash = page.getByTestId("flash");
  await expect(flash).toHaveText("Compiled without errors.");
  await expect(flash).toHaveAttribute("role", "status");
  await expect(page.getByTestId("deploy-form")).toBeVisible();

  // An undeclared name on line 17: an error, said as one; the line marked; the last build withdrawn.
  await setSource(page, javaScriptEnabled, original.replace("value = next;", "value = nxt;"));
  await page.getByRole("button", { name: "Save and compile" }).click();
  await expect(flash).toHaveText("The compiler found errors: see the messages beside the file.");
  await expect(flash).toHaveAttribute("role", "alert");
  await expect(flash).toHaveClass(/bg-red-50/);
  await expect(page.getByTestId("error-lines")).toHaveText("The compiler found an error in this file on line 17.");
  if (javaScriptEnabled) {
    const marked = page.locator(".cm-ide-error-line");
    await expect(marked).toHaveCount(1);
    await expect(marked).toHaveAttribute("data-error-line", "17");
    await expect(marked).toContainText("value = nxt;");
    await expect(marked).toHaveAttribute("title", /Undeclared identifier/);
  }
  await expect(page.getByTestId("deploy-form")).toHaveCount(0);
  await expect(page.getByTestId("deploy-blocked")).toBeVisible();

  // Fixed and compiled again: no marks, the deployment form is back.
  await setSource(page, javaScriptEnabled, original);
  await page.getByRole("button", { name: "Save and compile" }).click();
  await expect(flash).toHaveText("Compiled without errors.");
  await expect(page.getByTestId("error-lines")).toHaveCount(0);
  await expect(page.locator(".cm-ide-error-line")).toHaveCount(0);
  await expect(page.getByTestId("deploy-form")).toBeVisible();
  if (javaScriptEnabled) expect(await keysSeen(page)).toEqual([]);
});
