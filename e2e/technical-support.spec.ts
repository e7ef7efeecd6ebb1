import { expect, test } from "./fixtures.ts";
import { logInAs, OPERATOR } from "./services-support.ts";
import {
  createActiveUser,
  imageCaptchaOnly,
  passCaptcha,
  PASSWORD,
  settled,
  uniqueUser,
  waitForMail,
} from "./support.ts";

/**
 * Technical support and the newsletter (issue 15; docs/decisions/041), with JavaScript on and off: a visitor
 * subscribes and confirms through the mail; a user opens a ticket with an attachment, an operator replies, the
 * user sees the reply and gets a mail. Every name and address is unique to the test and its project.
 */

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
  Buffer.alloc(120, 7),
]);

test("a visitor subscribes to the newsletter, is told to wait before a second mail, and confirms through the mail", async ({
  page,
}, testInfo) => {
  const email = `${uniqueUser(testInfo, "news")}@example.com`;
  // The image captcha, also with JavaScript (as when the proof-of-work cannot run), so that it can be left empty.
  await imageCaptchaOnly(page);
  await page.goto("/g/main/index");
  await page.getByRole("navigation", { name: "Main" }).first().getByRole("link", { name: "Newsletter" }).click();
  await expect(page).toHaveURL(/\/g\/main\/subscribes$/);
  await expect(page.getByRole("heading", { name: "Newsletter", level: 1 })).toBeVisible();

  // The captcha is required.
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByText("Please enter the captcha.").or(page.getByText("This field is required."))).toBeVisible();

  await settled(page);
  await page.getByLabel("Email address").fill(email);
  await passCaptcha(page);
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Check your mailbox: we sent a confirmation link.");
  await expect(page.getByTestId("subscribe-sent")).toBeVisible();
  const mail = await waitForMail(email, /subscribes\/confirm\?token=/);
  expect(mail.subject).toBe("Confirm your BSN newsletter subscription");

  // Again at once: refused, saying how long to wait (SPEC §9, 60 s).
  await settled(page);
  await page.getByLabel("Email address").fill(email);
  await passCaptcha(page);
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByTestId("resend-wait")).toContainText(/Please wait \d+ seconds? before asking for another\./);
  await expect(page.getByLabel("Email address")).toHaveValue(email);

  const link = /https?:\/\/\S+\/g\/main\/subscribes\/confirm\?token=[A-Za-z0-9_-]+/.exec(mail.text)![0];
  await page.goto(new URL(link).pathname + new URL(link).search);
  await expect(page.getByRole("heading", { name: "Subscription confirmed" })).toBeVisible();
  await expect(page.getByTestId("newsletter-confirm")).toContainText(`${email} will receive the newsletter.`);
  // The link is one-time.
  await page.reload();
  await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();
});

test("a user opens a ticket with an attachment, an operator replies, the user sees the reply and gets a mail", async ({
  page,
  request,
}, testInfo) => {
  const userName = uniqueUser(testInfo, "tick");
  const { email } = await createActiveUser(request, userName);
  const question = `Node ${userName} does not start after the upgrade`;
  await logInAs(page, userName, PASSWORD);
  await page.goto("/g/home/DeveloperCommunity/TechnicalSupport");
  await expect(page.getByTestId("support-notice")).toContainText("Monday to Friday, 8:00-17:30 (UTC+8)");
  await expect(page.getByText("You have no tickets yet.")).toBeVisible();

  // §5: a contact is required; the question and the file are kept while the error shows.
  await page.getByLabel("Your question").fill(question);
  await page.getByRole("button", { name: "Open the ticket" }).click();
  await expect(page.getByText("Give a contact email or mobile number.")).toBeVisible();
  await expect(page.getByLabel("Your question")).toHaveValue(question);

  await page.getByLabel("Contact email").fill(email);
  await page
    .getByLabel("Attachment (optional)")
    .setInputFiles({ name: "screen.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Open the ticket" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Your ticket is open. We will reply here and by mail.");
  await expect(page).toHaveURL(/TechnicalSupportDetail\?ticketId=\d+/);
  const ticketId = new URL(page.url()).searchParams.get("ticketId")!;
  await expect(page.getByTestId("ticket-status")).toHaveText("Open");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "screen.png" }).click();
  expect((await download).suggestedFilename()).toBe("screen.png");

  // An operator finds it in the queue and replies.
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto("/g/home/operations/Tickets");
  await page
    .getByTestId("ops-ticket")
    .filter({ hasText: question })
    .getByRole("link", { name: `Ticket ${ticketId}` })
    .click();
  await expect(page.getByTestId("ticket-message").first()).toContainText(question);
  const reply = `Restart ${userName} with the new configuration.`;
  await page.getByLabel("Reply to the asker").fill(reply);
  await page.getByRole("button", { name: "Send the reply" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Your reply was sent.");
  await expect(page.getByTestId("ticket-status")).toHaveText("Answered");

  // The mail with the link to the conversation.
  const mail = await waitForMail(email, new RegExp(`TechnicalSupportDetail\\?ticketId=${ticketId}`));
  expect(mail.subject).toBe(`BSN support replied to your ticket ${ticketId}`);
  expect(mail.text).toContain(reply);

  // The user sees the reply and answers: the ticket is open again; then closes it (asked first).
  await logInAs(page, userName, PASSWORD);
  await page.goto("/g/home/DeveloperCommunity/TechnicalSupport?status=2");
  await page.getByTestId("my-ticket").filter({ hasText: question }).getByRole("link").click();
  await expect(page.locator('[data-testid="ticket-message"][data-author="operator"]')).toContainText(reply);
  await page.getByLabel("Your reply").fill("Thank you, it works now.");
  await page.getByRole("button", { name: "Send the reply" }).click();
  await expect(page.getByTestId("ticket-status")).toHaveText("Open");
  await page.getByRole("button", { name: "Close the ticket" }).click();
  await page.getByRole("button", { name: "Close the ticket" }).last().click();
  await expect(page.getByTestId("flash")).toHaveText("The ticket is closed.");
  await expect(page.getByTestId("ticket-status")).toHaveText("Closed");
});

test("a visitor asks on the contact page and follows the conversation by the mailed private link", async ({
  page,
}, testInfo) => {
  const email = `${uniqueUser(testInfo, "vis")}@example.com`;
  await page.goto("/g/main/contactUs");
  await page.getByLabel("Your question").fill(`Can ${email} run a city node?`);
  await page.getByLabel("Contact email").fill(email);
  await passCaptcha(page);
  await page.getByRole("button", { name: "Send the question" }).click();
  await expect(page.getByTestId("flash")).toHaveText(
    "Your question was sent. We mailed you the private link to this conversation.",
  );
  const mail = await waitForMail(email, /supportTicket\?key=/);
  const link = /https?:\/\/\S+\/g\/main\/supportTicket\?key=[A-Za-z0-9_-]+/.exec(mail.text)![0];
  await page.goto(new URL(link).pathname + new URL(link).search);
  await expect(page.getByTestId("ticket-message").first()).toContainText(`Can ${email} run a city node?`);
  await expect(page.getByTestId("ticket-status")).toHaveText("Open");
});
