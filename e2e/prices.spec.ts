import { expect, test } from "./fixtures.ts";
import { logInAs, OPERATOR } from "./services-support.ts";

// Operators' prices (docs/decisions/036): a bad amount is explained at its field and kept; a saved price is
// in the history with its author; the price is put back at the end (the demo database is shared).
// Runs with JavaScript on and off, in parallel: each project changes its own city node, one no other spec books.

test("an operator changes a city node's price, sees it in the history, and a bad amount is explained", async ({
  page,
}, testInfo) => {
  const node = testInfo.project.name === "nojs" ? "Frankfurt" : "Virginia";
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto("/g/home/operations/Prices");
  await expect(page.getByRole("heading", { name: "Prices" })).toBeVisible();
  const form = page.getByRole("form", { name: node });
  const tps = form.getByLabel("TPS per month (USD)");
  const before = await tps.inputValue();
  const raised = (Number(before) + 0.01).toFixed(2);
  const save = form.getByRole("button", { name: `Save the prices of ${node}` });

  await tps.fill("1.234");
  await save.click();
  await expect(
    page
      .getByRole("form", { name: node })
      .getByText("Enter an amount in USD with at most 2 decimals, such as 100 or 25.50."),
  ).toBeVisible();
  await expect(page.getByRole("form", { name: node }).getByLabel("TPS per month (USD)")).toHaveValue("1.234");

  await page.getByRole("form", { name: node }).getByLabel("TPS per month (USD)").fill(raised);
  await page
    .getByRole("form", { name: node })
    .getByRole("button", { name: `Save the prices of ${node}` })
    .click();
  try {
    await expect(page.getByTestId("flash")).toHaveText("The prices were saved.");
    const row = page.getByTestId("price-history").getByRole("row").filter({ hasText: node }).first();
    await expect(row).toContainText("TPS per month");
    await expect(row).toContainText(`$${before}`);
    await expect(row).toContainText(`$${raised}`);
    await expect(row).toContainText(OPERATOR.userName);
    await expect(page.getByRole("form", { name: node }).getByLabel("TPS per month (USD)")).toHaveValue(raised);
  } finally {
    await page.goto("/g/home/operations/Prices");
    await page.getByRole("form", { name: node }).getByLabel("TPS per month (USD)").fill(before);
    await page
      .getByRole("form", { name: node })
      .getByRole("button", { name: `Save the prices of ${node}` })
      .click();
  }
  await expect(page.getByTestId("flash")).toHaveText("The prices were saved.");
  await expect(page.getByRole("form", { name: node }).getByLabel("TPS per month (USD)")).toHaveValue(before);
});

// Every priced item is in the catalogue (docs/decisions/073): an IPFS capacity no other spec buys, one per
// project (JS on and off run in parallel), changed, seen in the history, a negative amount explained, put back.
test("an operator changes an IPFS capacity's price; a negative amount is explained at its field", async ({
  page,
}, testInfo) => {
  const item = testInfo.project.name === "nojs" ? "1 TB" : "500 GB";
  const label = "Per GB per month (USD)";
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto("/g/home/operations/Prices");
  await expect(page.getByRole("heading", { name: "IPFS capacities" })).toBeVisible();
  const form = () => page.getByRole("form", { name: `IPFS capacities · ${item}`, exact: true });
  const save = () => form().getByRole("button", { name: `Save the prices of ${item}` });
  const before = await form().getByLabel(label).inputValue();
  const raised = (Number(before) + 0.01).toFixed(2);

  await form().getByLabel(label).fill("-1");
  await save().click();
  await expect(form().getByText("Enter an amount in USD with at most 2 decimals, such as 100 or 25.50.")).toBeVisible();
  await expect(form().getByLabel(label)).toHaveValue("-1");

  await form().getByLabel(label).fill(raised);
  await save().click();
  try {
    await expect(page.getByTestId("flash")).toHaveText("The prices were saved.");
    const row = page
      .getByTestId("price-history")
      .getByRole("row")
      .filter({ hasText: `IPFS capacities · ${item}` })
      .first();
    await expect(row).toContainText("Per GB per month");
    await expect(row).toContainText(`$${before}`);
    await expect(row).toContainText(`$${raised}`);
    await expect(row).toContainText(OPERATOR.userName);
    await expect(form().getByLabel(label)).toHaveValue(raised);
  } finally {
    await page.goto("/g/home/operations/Prices");
    await form().getByLabel(label).fill(before);
    await save().click();
  }
  await expect(page.getByTestId("flash")).toHaveText("The prices were saved.");
  await expect(form().getByLabel(label)).toHaveValue(before);
});
