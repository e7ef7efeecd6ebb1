import { expect, test } from "./fixtures.ts";
import { signInOverHttp } from "./support.ts";

// SPEC §2: going offline shows a message; coming back restores the saved address. This needs JavaScript.
test("going offline shows a message and coming back restores the address", async ({ page, context }, testInfo) => {
  test.skip(testInfo.project.name === "nojs", "the browser's online/offline events need JavaScript");
  await signInOverHttp(page, "democompany", "Demo12!@pass");
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  await page.goto("/g/home/userCenter/MessageCenter?status=all");
  await expect(page.getByRole("heading", { name: "Message center" })).toBeVisible();
  await context.setOffline(true);
  await expect(page.getByTestId("offline")).toContainText("You are offline");
  await context.setOffline(false);
  await expect(page.getByTestId("offline")).toBeHidden();
  await expect(page).toHaveURL(/\/g\/home\/userCenter\/MessageCenter\?status=all$/);
});
