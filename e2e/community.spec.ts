import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { logInAs, OPERATOR } from "./services-support.ts";
import { createActiveUser, PASSWORD, uniqueUser, waitForMail } from "./support.ts";

/**
 * The developer community's content (issue 15; docs/decisions/040), with JavaScript on and off: an operator
 * writes and publishes an event, a user signs up and gets the confirmation mail; an operator publishes an
 * announcement whose banner shows on a public page and a console page, then withdraws it. Specs share one
 * server and run in parallel projects: every item here has its own title, and the announcement is withdrawn
 * (and deleted) whatever happens, so other specs see no banner for longer than this test runs.
 */

/** A datetime-local value (UTC+8) `hours` from now. */
const localIn = (hours: number) => new Date(Date.now() + hours * 3_600_000 + 8 * 3_600_000).toISOString().slice(0, 16);

async function confirmAfter(page: Page, javaScriptEnabled: boolean, confirmLabel: string) {
  const scope = javaScriptEnabled ? page.getByRole("alertdialog") : page.getByTestId("confirm-step");
  await scope.getByRole("button", { name: confirmLabel }).click();
}

/** An operator's new post of `kind` on the PostEdit page, saved as a draft, then published from its list. */
async function publishNew(page: Page, kind: "event" | "announcement", fill: () => Promise<void>, title: string) {
  await page.goto(`/g/home/operations/PostEdit?kind=${kind}`);
  await fill();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Saved.");
  const item = page.getByTestId("ops-post").filter({ hasText: title });
  await expect(item).toContainText("Draft");
  await item.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Published: readers see it now.");
  await expect(item).toContainText("Published");
  return item;
}

test("an operator publishes an event and a user signs up for it, once, with a confirmation mail", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(120_000);
  const title = `Meetup ${testInfo.project.name} ${Date.now().toString(36)}`;
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await publishNew(
    page,
    "event",
    async () => {
      await page.getByLabel("Title (English)").fill(title);
      await page.getByLabel("Text (English)").fill("Talks and a **workshop**.");
      // Nothing in Chinese: the Chinese reader sees the English text, marked.
      await page.getByLabel("Starts at").fill(localIn(48));
      await page.getByLabel("Sign-up deadline").fill(localIn(72));
      await page.getByLabel("Seats").fill("5");
      await page.getByLabel("Location").fill("Hangzhou");
      // The deadline after the start: the server refuses it at the field, keeping what was typed.
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page.getByText("The sign-up deadline must not be after the start.")).toBeVisible();
      await expect(page.getByLabel("Title (English)")).toHaveValue(title);
      await page.getByLabel("Sign-up deadline").fill(localIn(24));
    },
    title,
  );

  const userName = uniqueUser(testInfo, "evt");
  await createActiveUser(request, userName);
  await logInAs(page, userName, PASSWORD);
  await page.goto("/g/home/DeveloperCommunity");
  await expect(page).toHaveURL(/\/g\/home\/DeveloperCommunity\/News_Events$/);
  await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute(
    "href",
    "/g/main/feeds/news?lang=en&format=rss",
  );
  await page.getByLabel("Search news and events").fill(title);
  await page.getByLabel("Type").selectOption({ label: "Event" });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("news-item")).toHaveCount(1);
  await page.getByRole("link", { name: title }).click();
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await expect(page.getByTestId("seats-left")).toHaveText("5 / 5");
  await expect(page.getByTestId("my-signup")).toHaveText("Not signed up");

  // Bad input is refused at its field, nothing typed is lost.
  await page.getByLabel("Name").fill("Wang Fang");
  await page.getByLabel("Email for the confirmation").fill("not-an-address");
  await page.getByLabel("Organisation (optional)").fill("Ledger Lab");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByText("Enter a valid email address.")).toBeVisible();
  await expect(page.getByLabel("Organisation (optional)")).toHaveValue("Ledger Lab");
  const email = `${userName}@example.com`;
  await page.getByLabel("Email for the confirmation").fill(email);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByTestId("flash")).toHaveText("You are signed up. A confirmation is on its way by mail.");
  await expect(page.getByTestId("seats-left")).toHaveText("4 / 5");
  await expect(page.getByTestId("my-signup")).toContainText("Signed up on");
  await expect(page.getByRole("button", { name: "Sign up" })).toHaveCount(0);
  const mail = await waitForMail(email, new RegExp(`signed up for "${title}"`));
  expect(mail.text).toContain("Hangzhou");

  // The operator sees the sign-up and can export it.
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto("/g/home/operations/News?kind=event");
  await page.getByTestId("ops-post").filter({ hasText: title }).getByRole("link", { name: "Sign-ups" }).click();
  await expect(page.getByTestId("signup-row")).toHaveCount(1);
  await expect(page.getByTestId("signup-row")).toContainText("Ledger Lab");
  const csv = await request.get(`/g/home/operations/Signups/export.csv?${new URL(page.url()).searchParams}`, {
    headers: { Cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ") },
  });
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toContain(email);

  // Deleting asks first.
  await page.goto("/g/home/operations/News?kind=event");
  const item = page.getByTestId("ops-post").filter({ hasText: title });
  await item.getByRole("button", { name: "Delete" }).click();
  await confirmAfter(page, javaScriptEnabled, "Delete");
  await expect(page.getByTestId("flash")).toHaveText("Deleted.");
  await expect(page.getByTestId("ops-post").filter({ hasText: title })).toHaveCount(0);
});

test("an operator publishes an announcement: its banner shows on public and console pages until withdrawn", async ({
  page,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(120_000);
  const title = `Maintenance ${testInfo.project.name} ${Date.now().toString(36)}`;
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  let published = false;
  try {
    await publishNew(
      page,
      "announcement",
      async () => {
        await page.getByLabel("Title (English)").fill(title);
        await page.getByLabel("Title (Chinese)").fill(`维护 ${title}`);
        await page.getByLabel("Text (English)").fill("The portal is **read-only** for ten minutes.");
        await page.getByLabel("Show from").fill(localIn(-1));
        await page.getByLabel("Show until").fill(localIn(1));
      },
      title,
    );
    published = true;
    const banner = page.getByTestId("announcement-banner").filter({ hasText: title });
    // A console page, then a public one.
    await page.goto("/g/home/index");
    await expect(banner).toBeVisible();
    await page.goto("/g/main/index");
    await expect(banner).toBeVisible();
    await banner.getByRole("link", { name: title }).click();
    await expect(page).toHaveURL(/\/g\/main\/announcementDetail\?id=\d+$/);
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
    await expect(page.locator("strong", { hasText: "read-only" })).toBeVisible();
    await page.getByRole("link", { name: "All announcements" }).click();
    await expect(page.getByTestId("announcement").filter({ hasText: title })).toContainText("Active");
  } finally {
    // Withdrawn and deleted whatever happened above, so the other specs see no banner.
    await page.goto("/g/home/operations/Announcements");
    const item = page.getByTestId("ops-post").filter({ hasText: title });
    if (published && (await item.count()) > 0) {
      await item.getByRole("button", { name: "Withdraw" }).click();
      await expect(page.getByTestId("flash")).toHaveText("Withdrawn: readers no longer see it.");
      await item.getByRole("button", { name: "Delete" }).click();
      await confirmAfter(page, javaScriptEnabled, "Delete");
      await expect(page.getByTestId("flash")).toHaveText("Deleted.");
    }
  }
  await page.goto("/g/main/index");
  await expect(page.getByTestId("announcement-banner").filter({ hasText: title })).toHaveCount(0);
});

test("partners and the announcements list are public pages linked from the footer", async ({ page }) => {
  await page.goto("/g/main/index");
  await page.getByRole("contentinfo").getByRole("link", { name: "Partners" }).click();
  await expect(page).toHaveURL(/\/g\/main\/serviceNetworkLeague$/);
  await expect(page.getByRole("heading", { name: "Partners", level: 1 })).toBeVisible();
  await expect(page.getByTestId("partner").first()).toBeVisible();
  await page.getByRole("contentinfo").getByRole("link", { name: "Announcements" }).click();
  await expect(page).toHaveURL(/\/g\/main\/announcements$/);
  await expect(page.getByTestId("announcement").filter({ hasText: "Scheduled maintenance completed" })).toBeVisible();
});
