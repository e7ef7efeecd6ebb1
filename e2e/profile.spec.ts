import { expect, test } from "./fixtures.ts";
import { createActiveUser, PASSWORD, signInOverHttp, uniqueUser } from "./support.ts";

test("basic information: required fields are explained, nothing typed is lost, and the change is kept", async ({
  page,
  request,
}, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "prof"));
  await signInOverHttp(page, user.userName, PASSWORD);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  await page.goto("/g/home/userCenter/information");
  await expect(page.getByRole("heading", { name: "Basic information" })).toBeVisible();
  await expect(page.getByText(user.email)).toBeVisible();
  await expect(page.getByRole("link", { name: "Change through support" }).first()).toHaveAttribute(
    "href",
    "/g/main/contactUs",
  );

  await page.getByLabel("Country or region").fill("Singapore");
  await page.getByLabel("Self-introduction").fill("");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("This field is required.")).toBeVisible();
  await expect(page.getByLabel("Country or region")).toHaveValue("Singapore");

  await page.getByLabel("Self-introduction").fill("I write chaincode.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Your information was saved.");
  await page.reload();
  await expect(page.getByLabel("Self-introduction")).toHaveValue("I write chaincode.");
});

test("contacts: add with checks, edit, and delete after confirming", async ({ page, request }, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "cont"));
  await signInOverHttp(page, user.userName, PASSWORD);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  await page.goto("/g/home/userCenter/ContactInformation");
  await expect(page.getByText("No contacts yet.")).toBeVisible();

  await page.getByLabel("Name").fill("Li Lei");
  await page.getByLabel("Mobile").fill("12ab");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Department or company").fill("Operations");
  await page.getByRole("button", { name: "Add contact" }).click();
  await expect(page.getByText("Enter a valid mobile number (digits, optionally starting with +).")).toBeVisible();
  await expect(page.getByText("Enter a valid email address.")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("Li Lei");

  await page.getByLabel("Mobile").fill("+8613912345678");
  await page.getByLabel("Email").fill("li.lei@example.com");
  await page.getByRole("button", { name: "Add contact" }).click();
  await expect(page.getByTestId("flash")).toHaveText("The contact was added.");
  await expect(page.getByTestId("contact")).toHaveCount(1);

  await page.getByRole("link", { name: "Edit Li Lei" }).click();
  await expect(page.getByRole("heading", { name: "Edit contact" })).toBeVisible();
  await page.getByLabel("Department or company").fill("Finance");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("flash")).toHaveText("The contact was updated.");
  await expect(page.getByTestId("contact")).toContainText("Finance");

  await page.getByRole("link", { name: "Delete Li Lei" }).click();
  await expect(page.getByRole("heading", { name: "Delete the contact Li Lei?" })).toBeVisible();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByTestId("flash")).toHaveText("The contact was deleted.");
  await expect(page.getByText("No contacts yet.")).toBeVisible();
});
