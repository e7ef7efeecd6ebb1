import { expect, test } from "./fixtures.ts";

// Both languages in the data too (issue 16, docs/decisions/028): the city-node catalogue on the landing page.
for (const [lng, words] of [
  ["zh-CN", ["北京", "北京市海淀区", "中国移动", "移动云"]],
  ["en", ["Beijing", "Haidian District, Beijing", "China Mobile", "China Mobile Cloud"]],
] as const) {
  test(`the landing page lists the city nodes in ${lng}`, async ({ page }) => {
    await page.goto(`/g/lang?lng=${lng}&redirectTo=${encodeURIComponent("/g/main/index")}`);
    const beijing = page.locator("section[aria-labelledby=nodes] tbody tr").first();
    for (const word of words) await expect(beijing).toContainText(word);
  });
}
