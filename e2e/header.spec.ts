import { expect, test } from "./fixtures.ts";

/*
 * Issue 30 item 6: the public header is one row on a desktop screen, in both languages: the logo, the pages, the
 * language switch and Log in / Register side by side (at 1440 and 1920 px; below the wide-screen width they sit
 * behind the menu button, as on a phone).
 */
for (const width of [1440, 1920])
  for (const lng of ["en", "zh-CN"] as const)
    test(`the public header is one row at ${width} px (${lng})`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/g/lang?lng=${lng}&redirectTo=/g/main/index`);
      const header = page.locator("header").first();
      const logo = header.getByRole("link").first();
      const login = header.getByRole("link", { name: lng === "en" ? "Log in" : "登录" }).first();
      const register = header.getByRole("link", { name: lng === "en" ? "Register" : "注册" }).first();
      await expect(login).toBeVisible();
      await expect(register).toBeVisible();
      const [l, a, r] = [await logo.boundingBox(), await login.boundingBox(), await register.boundingBox()];
      // One row: each link's vertical middle lies within the logo's height.
      for (const box of [a, r]) {
        const middle = box!.y + box!.height / 2;
        expect(middle).toBeGreaterThan(l!.y);
        expect(middle).toBeLessThan(l!.y + l!.height);
      }
      const headerBox = await header.boundingBox();
      expect(headerBox!.height).toBeLessThan(100);
    });
