import type { Locator, Page } from "@playwright/test";
import { axeIdle } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { logInAs, OPERATOR } from "./services-support.ts";
import { createActiveUser, PASSWORD, signInOverHttp, uniqueUser } from "./support.ts";

/**
 * Visual baselines (issue 30, proof): the landing, the console home, the wizard's first step, the DDC page, and the
 * operator's landing, at a phone's width and at 1440 and 1920 px, compared with `toHaveScreenshot`.
 *
 * What another spec of the same run can change is masked or avoided, so that a baseline fails on a layout change and
 * on nothing else:
 * - the browser's clock is fixed (Playwright clock); dates the server writes, live figures (balances, counts, charts)
 *   and the test-mode banner are masked; an announcement's banner is left out;
 * - the console home, the wizard and the DDC page are a new account's (the same content every run: the getting-started
 *   list, empty figures; a DDC minted here would cost a chain account with gas at every width); the header's account
 *   controls are masked (its name, the unread count);
 * - the operator's landing is the demo operator's, its queue counts masked (other specs add to the queues).
 * The tolerance survives font hinting and anti-aliasing (a fraction of a percent of the pixels), not a moved block.
 * Debian's Chinese font (fonts-wqy-microhei, installed by scripts/test.sh) renders the one Chinese page.
 * JavaScript on only: the same pages without it are the same pixels.
 */

const WIDTHS = [
  { name: "phone", width: 390, height: 844 },
  { name: "1440", width: 1440, height: 900 },
  { name: "1920", width: 1920, height: 1080 },
] as const;

const FIXED_NOW = new Date("2026-06-01T10:00:00+08:00");

test.beforeEach(async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== "js", "one set of baselines: the same pages without JavaScript are the same");
  await page.clock.setFixedTime(FIXED_NOW);
});

/** What differs from run to run on any page. */
function live(page: Page, more: Locator[] = []): Locator[] {
  return [
    page.getByTestId("test-mode-banner"),
    page.locator("time"),
    page.locator(".apexcharts-canvas"),
    // Figures are set in tabular numbers (balances, counts, amounts).
    page.locator(".tabular-nums"),
    ...more,
  ];
}

async function compare(page: Page, name: string, mask: Locator[]) {
  // Fonts loaded, nothing moving, axe done: a screenshot of a page still laying out is not a baseline.
  await page.evaluate(() => document.fonts.ready);
  await axeIdle(page);
  // An announcement another spec publishes would push the page down: the banner is left out, not masked.
  await page.addStyleTag({ content: '[data-testid="announcement-banner"] { display: none !important; }' });
  // No hover left by the last click.
  await page.mouse.move(0, 0);
  await expect(page).toHaveScreenshot(`${name}.png`, {
    mask,
    animations: "disabled",
    caret: "hide",
    maxDiffPixelRatio: 0.005,
    fullPage: false,
  });
}

for (const size of WIDTHS) {
  test.describe(`at ${size.name} (${size.width}×${size.height})`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("the landing", async ({ page }) => {
      await page.goto("/g/main/index");
      await compare(page, `landing-${size.name}`, live(page));
    });

    test("the landing in Chinese", async ({ page }) => {
      test.skip(size.name !== "1440", "one width is enough for the Chinese font");
      await page.goto("/g/main/index");
      await page.locator('a[hreflang="zh-CN"]').first().click();
      await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
      await compare(page, `landing-zh-${size.name}`, live(page));
    });

    test("a new account's console home, the wizard's first step and the DDC page", async ({
      page,
      request,
    }, testInfo) => {
      const user = await createActiveUser(request, uniqueUser(testInfo, "vis"));
      await signInOverHttp(page, user.userName, PASSWORD);
      await expect(page.getByTestId("checklist")).toBeVisible();
      const account = page.locator("header nav");
      await compare(page, `console-home-${size.name}`, live(page, [account]));
      await page.goto("/g/home/PermissionedServices/PublishedServices/NewServices");
      await expect(page.locator("h1")).toBeVisible();
      await compare(page, `wizard-${size.name}`, live(page, [account]));
      await page.goto("/g/home/DDC");
      await expect(page.getByTestId("empty")).toBeVisible();
      await compare(page, `ddc-${size.name}`, live(page, [account]));
    });

    test("the operator's landing", async ({ page }) => {
      await logInAs(page, OPERATOR.userName, OPERATOR.password);
      // The landing as the operator finds it any time, not the once-only welcome of a first sign-in this run.
      await page.goto("/g/home/index");
      await expect(page.getByTestId("ops-group-reviews")).toBeVisible();
      const waiting = page.locator('[data-testid^="ops-group-waiting-"]');
      await compare(page, `operator-home-${size.name}`, live(page, [waiting, page.locator("header nav")]));
    });
  });
}
