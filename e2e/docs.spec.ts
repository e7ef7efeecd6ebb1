import { expect, ready, test } from "./fixtures.ts";
import { logInAs, OPERATOR } from "./services-support.ts";
import { uniqueUser } from "./support.ts";

// Issue 15 (docs/decisions/042): the manual at /g/main/documentation, its search in both languages, the API
// reference generated from the contract, and an operator's page that falls back visibly to English. Runs with
// JavaScript on and off; the operator's page is named per project, so both runs share the server.

test("a visitor reads the manual and finds a page by an English and by a Chinese query", async ({ page }, testInfo) => {
  const js = testInfo.project.use.javaScriptEnabled !== false;
  await page.goto("/g/main/documentation");
  if (js) await ready(page);
  await expect(page.getByTestId("docs-toc")).toContainText("Publishing a service with the wizard");
  await expect(page.getByTestId("doc-article").getByRole("heading", { level: 1 })).toHaveText("Getting started");

  await page.getByLabel("Search the manual").fill("invoice title");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=invoice/);
  const hit = page.getByTestId("docs-hit").filter({ hasText: "Bills and invoices" });
  await expect(hit).toBeVisible();
  await hit.getByRole("link").click();
  await expect(page.getByTestId("doc-article").getByRole("heading", { level: 1 })).toHaveText("Bills and invoices");
  await expect(page.getByTestId("doc-article")).toContainText("special VAT invoice");

  // A Chinese query finds the Chinese text of the same page.
  await page.getByLabel("Search the manual").fill("增值税专用发票");
  await page.getByLabel("Search in").selectOption("zh-CN");
  await page.getByRole("button", { name: "Search" }).click();
  const zhHit = page.getByTestId("docs-hit").filter({ hasText: "账单与发票" });
  await expect(zhHit).toBeVisible();
  await expect(zhHit).toHaveAttribute("lang", "zh-CN");

  // The API reference lists the /vueapi paths with who may call them.
  await page.goto("/g/main/documentation/api");
  await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
  await expect(page.getByTestId("api-path").filter({ hasText: "/vueapi/anon/docs/search" })).toContainText("no login");
});

test("an operator publishes an English-only page: it is found by search and shown in English to a Chinese reader, said so", async ({
  page,
}, testInfo) => {
  const js = testInfo.project.use.javaScriptEnabled !== false;
  const slug = uniqueUser(testInfo, "faq")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-");
  const word = `zeb${slug.replace(/-/g, "")}`;
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto("/g/home/operations/Documentation?new=1");
  if (js) await ready(page);
  await page.getByLabel("Address (slug)").fill("Not A Slug");
  await page.getByLabel("Title (English)").fill(`Questions about ${word}`);
  await page.getByRole("button", { name: "Save page" }).click();
  await expect(page.getByText("Use lower-case letters, digits and hyphens (such as getting-started).")).toBeVisible();
  await expect(page.getByText("Give this language's text too, or leave its title empty.")).toBeVisible();
  await expect(page.getByLabel("Title (English)")).toHaveValue(`Questions about ${word}`);
  await page.getByLabel("Address (slug)").fill(slug);
  await page.getByLabel("Text (English, Markdown)").fill(`## Why ${word}?\n\nBecause **stripes**.`);
  await page.getByRole("button", { name: "Save page" }).click();
  await expect(page.getByTestId("flash")).toHaveText("The page was saved.");
  await expect(page.getByTestId("doc-row").filter({ hasText: slug })).toContainText("Published");

  await page.goto(`/g/main/documentation?q=${word}`);
  await page
    .getByTestId("docs-hit")
    .getByRole("link", { name: `Questions about ${word}` })
    .click();
  await expect(page.getByTestId("doc-article").locator("strong")).toHaveText("stripes");
  // In Chinese the page falls back to English, visibly.
  await page.goto(`/g/lang?lng=zh-CN&redirectTo=${encodeURIComponent(`/g/main/documentation?page=${slug}`)}`);
  await expect(page.getByTestId("doc-fallback")).toContainText("本页尚未翻译");

  // Deleting asks first (a dialog with JavaScript, a confirm step without).
  await page.goto(`/g/lang?lng=en&redirectTo=${encodeURIComponent("/g/home/operations/Documentation")}`);
  if (js) await ready(page);
  const row = page.getByTestId("doc-row").filter({ hasText: slug });
  await row.getByRole("button", { name: "Delete", exact: true }).click();
  if (js) await page.getByRole("alertdialog").getByRole("button", { name: "Delete", exact: true }).click();
  else
    await page
      .getByTestId("confirm-step")
      .getByRole("button", { name: `Delete Questions about ${word}` })
      .click();
  await expect(page.getByTestId("flash")).toHaveText("The page was deleted.");
  await expect(page.getByTestId("doc-row").filter({ hasText: slug })).toHaveCount(0);
});

// Issue 30 item 16 (docs/decisions/077): a chapter per service, and the links that lead into the manual land on a
// page: the DDC vault document is the DDC chapter, "User manual" and "Documentation" are two places.
test("the manual has a chapter per service; the DDC vault, User manual and Documentation lead to their own pages", async ({
  page,
}) => {
  await page.goto("/g/main/documentation");
  const toc = page.getByTestId("docs-toc");
  for (const title of [
    "DID: identifiers and credentials",
    "The online IDE",
    "DDC certificates and account binding",
    "Dedicated nodes",
    "Cross-chain services",
    "The app store",
  ])
    await expect(toc.getByRole("link", { name: title, exact: true })).toBeVisible();

  await logInAs(page, "democompany", "Demo12!@pass");
  const documentation = page.getByRole("link", { name: "Documentation", exact: true }).first();
  const manual = page.getByRole("link", { name: "User manual", exact: true });
  await expect(documentation).toHaveAttribute("href", "/g/main/documentation");
  await expect(manual).toHaveAttribute("href", "/g/main/documentation?page=getting-started");

  await page.goto("/g/home/DDC");
  await page.getByTestId("ddc-vault-link").click();
  await expect(page).toHaveURL(/\/g\/main\/documentation\?page=ddc$/);
  const article = page.getByTestId("doc-article");
  await expect(article.getByRole("heading", { level: 1 })).toHaveText("DDC certificates and account binding");
  await expect(article.getByRole("heading", { name: "The DDC vault document", exact: true })).toBeVisible();
  await expect(article.getByRole("heading", { name: "Account binding", exact: true })).toBeVisible();
});
