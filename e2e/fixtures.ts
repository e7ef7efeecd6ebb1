import { test as base, type Page } from "@playwright/test";

/** With JavaScript on, wait until React has hydrated the page before acting on it. */
export async function ready(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true", undefined, { timeout: 15_000 });
}

export const test = base.extend({
  page: async ({ page, javaScriptEnabled }, provide) => {
    // The Content-Security-Policy (docs/decisions/016) must not block anything the pages use: a script
    // without the nonce, an injected style, an image or a request the policy does not allow.
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    if (javaScriptEnabled) {
      const goto = page.goto.bind(page);
      page.goto = async (url, options) => {
        const response = await goto(url, options);
        await ready(page);
        return response;
      };
    }
    await provide(page);
    if (violations.length > 0) throw new Error(`Content-Security-Policy violations:\n${violations.join("\n")}`);
  },
});

export { expect } from "@playwright/test";
