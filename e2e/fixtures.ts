import { test as base, type Page } from "@playwright/test";

/** With JavaScript on, wait until React has hydrated the page before acting on it. */
export async function ready(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true", undefined, { timeout: 15_000 });
}

export const test = base.extend({
  page: async ({ page, javaScriptEnabled }, provide) => {
    if (javaScriptEnabled) {
      const goto = page.goto.bind(page);
      page.goto = async (url, options) => {
        const response = await goto(url, options);
        await ready(page);
        return response;
      };
    }
    await provide(page);
  },
});

export { expect } from "@playwright/test";
