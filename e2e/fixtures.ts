import { test as base, type Browser, type Page } from "@playwright/test";
import { AxeWatch } from "./axe.ts";

/** With JavaScript on, wait until React has hydrated the page before acting on it. */
export async function ready(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true", undefined, {
    timeout: 15_000,
  });
}

export const test = base.extend({
  page: async ({ page, javaScriptEnabled, browser }, provide, testInfo) => {
    // The Content-Security-Policy (docs/decisions/016) must not block anything the pages use: a script
    // without the nonce, an injected style, an image or a request the policy does not allow.
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    // Chromium logs most refusals on the console, not all: a refused `new Function` that the page catches (a
    // library testing whether it may compile code) only fires the page's event. The page reports each one itself.
    if (javaScriptEnabled)
      await page.addInitScript(() =>
        document.addEventListener("securitypolicyviolation", (event) =>
          console.error(
            `Content Security Policy: ${event.effectiveDirective} refused ${event.blockedURI || "(inline)"} at ${event.sourceFile}:${event.lineNumber}`,
          ),
        ),
      );
    // axe-core analyses every page a JavaScript-on test visits, in the test's own contexts too (e2e/axe.ts).
    const axe = new AxeWatch(testInfo);
    const newContext = browser.newContext;
    if (javaScriptEnabled) {
      axe.watch(page);
      (browser as Browser).newContext = async (options) => {
        const context = await newContext.call(browser, options);
        if (options?.javaScriptEnabled !== false) context.on("page", (p) => axe.watch(p));
        return context;
      };
      const goto = page.goto.bind(page);
      // Unless the test asks for the response alone (`waitUntil: "commit"`: it holds the page's scripts back).
      page.goto = async (url, options) => {
        const response = await goto(url, options);
        if (options?.waitUntil !== "commit") await ready(page);
        return response;
      };
    }
    try {
      await provide(page);
      await axe.finish();
    } finally {
      browser.newContext = newContext;
    }
    if (violations.length > 0) throw new Error(`Content-Security-Policy violations:\n${violations.join("\n")}`);
  },
});

export { expect } from "@playwright/test";
