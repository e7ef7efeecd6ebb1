import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { api, apiToken, logInAs, OPERATOR, publisherWithService } from "./services-support.ts";
import { CAPTCHA, createActiveUser, decideInQueue, PASSWORD, uniqueUser } from "./support.ts";

/** A fresh user and their /vueapi token. */
async function userWithToken(request: APIRequestContext, prefix: string, testInfo: Parameters<typeof uniqueUser>[0]) {
  const user = await createActiveUser(request, uniqueUser(testInfo, prefix));
  const captcha = await api(request, "/anon/captcha/create", {});
  const login = await api(request, "/main/user/login", {
    username: user.userName,
    password: PASSWORD,
    captchaKey: captcha.captchaKey,
    captcha: CAPTCHA,
  });
  return { ...user, token: login.token as string };
}
async function operatorToken(request: APIRequestContext) {
  return apiToken(request, OPERATOR.userName, OPERATOR.password);
}
/** A product listed through the real path: saved, submitted, approved by the operator. */
async function listedProduct(request: APIRequestContext, token: string, name: string) {
  const { productId } = await api(
    request,
    "/sys/product/save",
    {
      product: {
        name,
        productType: "2",
        brief: `Brief of ${name}`,
        description: `Everything about ${name}.`,
        suggestedPrice: "49.90",
        payMode: "2",
      },
    },
    token,
  );
  await api(request, "/sys/product/submit", { productId }, token);
  await api(request, "/sys/ops/products/decide", { productId, decision: "approve" }, await operatorToken(request));
  return productId as number;
}
const storeName = (testInfo: Parameters<typeof uniqueUser>[0], prefix: string) =>
  `${prefix} ${uniqueUser(testInfo, "")}`.slice(0, 40);

test("a buyer publishes a listed product and lands in the wizard with the draft prefilled", async ({
  page,
  request,
}, testInfo) => {
  const seller = await userWithToken(request, "sel", testInfo);
  const name = storeName(testInfo, "Kit");
  const productId = await listedProduct(request, seller.token, name);
  const buyer = await createActiveUser(request, uniqueUser(testInfo, "buy"));
  await logInAs(page, buyer.userName, PASSWORD);
  await page.goto(`/g/home/AppStore/Products?name=${encodeURIComponent(name)}`);
  const card = page.getByTestId("store-product");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("$49.90");
  await card.getByRole("link", { name }).click();
  await expect(page).toHaveURL(new RegExp(`/g/home/AppStore/Product\\?id=${productId}$`));
  await page.getByRole("button", { name: "Publish as my service" }).click();
  await expect(page).toHaveURL(
    /\/g\/home\/PermissionedServices\/PublishedServices\/NewServices\?appState=add&appId=\d+&step=basic$/,
  );
  await expect(page.getByTestId("flash")).toHaveText("Your service draft is ready: complete it in the wizard.");
  await expect(page.getByLabel("Service name")).toHaveValue(name);
  await expect(page.getByLabel("Description")).toHaveValue(`Brief of ${name}`);
  await expect(page.getByLabel("Introduction")).toHaveValue(`Everything about ${name}.`);
  await expect(page.getByLabel("Contact email")).toHaveValue(buyer.email);
  // The product page now lists the buyer's service made from it.
  await page.goto(`/g/home/AppStore/Product?id=${productId}`);
  await expect(page.getByRole("link", { name: "Open in the publish wizard" })).toHaveCount(1);
});

test("a product goes through operator approval to listed", async ({ page, request }, testInfo) => {
  const owner = await createActiveUser(request, uniqueUser(testInfo, "own"));
  const name = storeName(testInfo, "Ledger");
  await logInAs(page, owner.userName, PASSWORD);
  await page.goto("/g/home/AppStore/MyProducts");
  await page.getByRole("link", { name: "New product" }).click();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Type").selectOption({ label: "Solution" });
  await page.getByLabel("Brief").fill("Shared ledger for partners.");
  await page.getByLabel("Description").fill("Partners keep one ledger of their trades.");
  await page.getByLabel("Suggested price (USD)").fill("15");
  await page.getByLabel("Payment mode").selectOption({ label: "Monthly" });
  // Individuals cannot list company products (§1, §6): refused, with what was typed kept.
  await page.getByLabel("This is a company product (enterprise certification required)").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("form-error")).toContainText("Enterprise certification is required");
  await expect(page.getByLabel("Name")).toHaveValue(name);
  await page.getByLabel("This is a company product (enterprise certification required)").uncheck();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("flash")).toHaveText("The product was saved.");
  const row = page.getByTestId("my-product").filter({ hasText: name });
  await expect(row.getByTestId("product-status")).toHaveText("Pending submit");
  await row.getByRole("button", { name: "Submit for approval" }).click();
  await expect(page.getByTestId("flash")).toHaveText("The product was submitted for approval.");
  await expect(page.getByTestId("my-product").filter({ hasText: name }).getByTestId("product-status")).toHaveText(
    "Pending approval",
  );

  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto("/g/home/operations/Products");
  const item = page.getByTestId("product-review").filter({ has: page.getByRole("heading", { name }) });
  await expect(item).toContainText("Shared ledger for partners.");
  await decideInQueue(page, item, "Approve and list");
  await expect(page.getByTestId("flash")).toHaveText("The product is listed.");
  await expect(page.getByTestId("product-review").filter({ has: page.getByRole("heading", { name }) })).toHaveCount(0);

  await logInAs(page, owner.userName, PASSWORD);
  await page.goto("/g/home/AppStore/MyProducts");
  await expect(page.getByTestId("my-product").filter({ hasText: name }).getByTestId("product-status")).toHaveText(
    "Listed",
  );
  await page.goto(`/g/home/AppStore/Products?name=${encodeURIComponent(name)}`);
  await expect(page.getByTestId("store-product")).toContainText(name);
  await expect(page.getByTestId("store-product")).toContainText("$15.00 Monthly");

  // The owner removes it (2 → 4) after confirming: a dialog with JavaScript, a confirm step without.
  await page.goto("/g/home/AppStore/MyProducts");
  await page
    .getByTestId("my-product")
    .filter({ hasText: name })
    .getByRole("button", { name: "Remove from the store" })
    .click();
  await expect(page.getByText(`Remove ${name} from the app store? Buyers will no longer see it.`)).toBeVisible();
  await page.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(page.getByTestId("flash")).toHaveText("The product was removed from the store.");
  await expect(page.getByTestId("my-product").filter({ hasText: name }).getByTestId("product-status")).toHaveText(
    "Removed",
  );
  await page.goto(`/g/home/AppStore/Products?name=${encodeURIComponent(name)}`);
  await expect(page.getByText("No product matches. Try another name or type.")).toBeVisible();
});

test("follow and unfollow a service in the app store", async ({ page, request }, testInfo) => {
  const pub = await publisherWithService(request, "fol", testInfo, { verState: 25 });
  await api(request, "/test/store", { appId: pub.appId, makePublic: true }, pub.token);
  const viewer = await createActiveUser(request, uniqueUser(testInfo, "fan"));
  await logInAs(page, viewer.userName, PASSWORD);
  await page.goto(`/g/home/AppStore/Services?name=${encodeURIComponent(pub.name)}`);
  const card = page.getByTestId("store-service");
  await expect(card.getByTestId("participation")).toHaveText("Not participated");
  await expect(card.getByTestId("followers")).toHaveText("0 followers");
  await card.getByRole("link", { name: pub.name }).click();
  await expect(page.getByRole("link", { name: "Join this service" })).toHaveAttribute(
    "href",
    new RegExp(`/g/home/ParticipatedServices/JOIN\\?a=${pub.appId}&b=APP`),
  );
  await page.getByRole("button", { name: "Follow", exact: true }).click();
  await expect(page.getByTestId("flash")).toHaveText("You follow it now.");
  await expect(page.getByTestId("followers")).toHaveText("1 follower");
  await page.getByRole("button", { name: "Unfollow" }).click();
  await expect(page.getByTestId("flash")).toHaveText("You no longer follow it.");
  await expect(page.getByTestId("followers")).toHaveText("0 followers");
  await expect(page.getByRole("button", { name: "Follow", exact: true })).toBeVisible();
});

test("a comment too long is refused with the text kept; a participant comments and a reader marks it useful", async ({
  page,
  request,
}, testInfo) => {
  const pub = await publisherWithService(request, "com", testInfo, { verState: 25 });
  await api(request, "/test/store", { appId: pub.appId, makePublic: true }, pub.token);
  const participant = await userWithToken(request, "par", testInfo);
  await api(request, "/test/store", { appId: pub.appId, joinState: 15 }, participant.token);
  await logInAs(page, participant.userName, PASSWORD);
  await page.goto(`/g/home/AppStore/Service?appId=${pub.appId}`);
  await expect(page.getByTestId("participation")).toHaveText("Participated");
  await expect(page.getByRole("link", { name: "Join this service" })).toHaveCount(0);
  const long = "Too long ".repeat(17).slice(0, 151);
  await page.getByLabel("Your comment").fill(long);
  await page.getByRole("button", { name: "Publish comment" }).click();
  await expect(page.getByText("A comment has at most 150 characters.")).toBeVisible();
  await expect(page.getByLabel("Your comment")).toHaveValue(long);
  await expect(page.getByTestId("comment")).toHaveCount(0);
  await page.getByLabel("Your comment").fill("Works well for our team.");
  await page.getByRole("button", { name: "Publish comment" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Your comment was published.");
  const comment = page.getByTestId("comment");
  await expect(comment).toContainText("Works well for our team.");
  await expect(comment).toContainText("Unreplied");
  // Rate it (participants only).
  await page.getByLabel("Your rating").selectOption({ label: "4 stars" });
  await page.getByRole("button", { name: "Save rating" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Your rating was saved.");
  await expect(page.getByText("4.0 / 5 (1 rating)")).toBeVisible();

  const reader = await createActiveUser(request, uniqueUser(testInfo, "rdr"));
  await logInAs(page, reader.userName, PASSWORD);
  await page.goto(`/g/home/AppStore/Service?appId=${pub.appId}`);
  await expect(page.getByText("Only participants of this service can comment and rate.")).toBeVisible();
  await page.getByRole("button", { name: "Mark useful (0)" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Marked as useful.");
  await expect(page.getByTestId("comment")).toContainText("Useful (1) · You marked this useful");
});
