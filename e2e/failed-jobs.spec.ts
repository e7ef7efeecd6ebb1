import { expect, test } from "./fixtures.ts";
import { api, apiToken, logInAs, OPERATOR } from "./services-support.ts";
import { createActiveUser, PASSWORD, uniqueUser } from "./support.ts";

// docs/decisions/005: a background job that used up its attempts lands in Operations → Failed jobs with
// its kind, target, attempts and last error; the user it concerns is told; an operator retries it (confirmed
// first: a dialog with JavaScript, a confirm step without) and it runs. Runs with JavaScript on and off.

const PAGE = "/g/home/operations/FailedJobs";

test("an operator retries a failed job and it runs; its owner was told", async ({ page, request }, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "jobs"));
  const token = await apiToken(request, user.userName);
  const label = `export ${uniqueUser(testInfo, "")}`.slice(0, 40);
  // A test job whose dependency is down for a moment, on its last attempt: dead when the call answers.
  const { jobId } = (await api(
    request,
    "/test/jobs",
    { failForMs: 1_000, attemptsUsed: 7, run: "wait", label },
    token,
  )) as { jobId: number };
  expect(await api(request, "/test/jobs/status", { jobId }, token)).toMatchObject({ state: "dead", attempts: 8 });

  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto("/g/home/operations");
  await page
    .getByRole("navigation", { name: "Operations" })
    .getByRole("link", { name: /^Failed jobs( \d+ waiting)?$/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
  await expect(page.getByRole("heading", { name: "Failed jobs", level: 2 })).toBeVisible();
  // An operator's menu starts with Operations, current on every queue (issue 30 item 4).
  const first = page.getByRole("navigation", { name: "Console menu" }).getByRole("link").first();
  await expect(first).toHaveText("Operations");
  await expect(first).toHaveAttribute("aria-current", "page");
  const card = page.locator(`[data-testid="failed-job"][data-job-id="${jobId}"]`);
  await expect(card.getByRole("heading")).toHaveText(`Job #${jobId} · Test job test.job`);
  await expect(card.getByTestId("owner")).toHaveText(user.userName);
  await expect(card.getByTestId("attempts")).toHaveText("8");
  await expect(card.getByTestId("target")).toContainText(label);
  await expect(card.getByTestId("last-error")).toContainText("test dependency unavailable until");

  // An unknown intent or a job id that is not one is a 400, and changes nothing.
  for (const form of [
    { intent: "delete", jobId: String(jobId) },
    { intent: "retry", jobId: "x" },
  ]) {
    expect(
      (await page.request.post(PAGE, { form: { ...form, confirmed: "yes" } })).status(),
      JSON.stringify(form),
    ).toBe(400);
  }
  await expect(card).toHaveCount(1);

  await card.getByRole("button", { name: "Retry", exact: true }).click();
  await expect(page.getByText(`Run job #${jobId} (test.job) again now, with all its attempts?`)).toBeVisible();
  await page.getByRole("button", { name: "Retry now", exact: true }).click();
  await expect(page.getByTestId("flash")).toHaveText("The job was put back in the queue and runs again now.");
  await expect(card).toHaveCount(0);
  // The job loop runs it (its dependency is back by now).
  await expect(async () => {
    expect(await api(request, "/test/jobs/status", { jobId }, token)).toMatchObject({ state: "done", retries: 1 });
  }).toPass({ timeout: 15_000 });

  await logInAs(page, user.userName, PASSWORD);
  await page.goto("/g/home/userCenter/MessageCenter");
  await expect(
    page.getByText(`The background task “Test job” for ${label} failed 8 times and was stopped.`, { exact: false }),
  ).toBeVisible();
});
