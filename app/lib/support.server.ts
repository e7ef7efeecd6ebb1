import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect } from "@remix-run/node";
import { replyFormSchema, supportNotice, visitorTicketFormSchema } from "#contract/support.ts";
import { TicketStatus } from "#contract/support-codes.ts";
import { failureResponse, notFound, redirectAfter, type Api } from "./api.server.ts";
import { formFailureStatus, replyWithFailure } from "./forms.server.ts";
import { fileResponse } from "./downloads.server.ts";
import { intentOf } from "./intents.server.ts";
import { positiveId } from "./params.ts";
import { redirectWithFlash } from "./session.server.ts";
import type { VueapiResult } from "./vueapi.server.ts";

/* Server work of the support pages (docs/decisions/041): the visitor's form, replies, attachments, the hours notice. */

/** SPEC §9 support hours at this request's time. */
export const noticeNow = () => supportNotice(new Date());

/** A visitor's private ticket page (the link mailed to them). */
export const visitorTicketPage = (key: string) => `/g/main/supportTicket?key=${encodeURIComponent(key)}`;

/**
 * A visitor's ticket from the support or contact page: the form's schema, then the backend (captcha, limits,
 * contact rules again). From the support page the visitor lands on the ticket's private page, whose link was also
 * mailed; the contact page (open to mobile devices, SPEC §2, where the private page is not) answers on itself.
 */
export async function createVisitorTicket(request: Request, api: Api, backTo: string | null = null) {
  const submission = parseWithZod(await request.formData(), { schema: visitorTicketFormSchema });
  if (submission.status !== "success")
    return json({ result: submission.reply({ hideFields: ["captcha"] }) }, { status: 400 });
  const result = await api.call("/anon/technicalSupport/insertTech", submission.value);
  if (!result.ok)
    return json(
      { result: replyWithFailure(submission, result, { hideFields: ["captcha"] }) },
      { status: formFailureStatus(result) },
    );
  if (backTo)
    return redirectWithFlash(request, backTo, {
      kind: "success",
      key: result.data.mailed ? "support:visitor.sentMailed" : "support:visitor.sentCall",
    });
  return redirectWithFlash(request, visitorTicketPage(result.data.key), {
    kind: "success",
    key: result.data.mailed ? "support:visitor.sentMailed" : "support:visitor.sentKeepLink",
  });
}

/** A reply form's submission, sent by `send`; the page again (with the flash) or the form's errors. */
export async function replyToTicket(
  request: Request,
  formData: FormData,
  send: (content: string) => Promise<VueapiResult<unknown>>,
  back: string,
) {
  const submission = parseWithZod(formData, { schema: replyFormSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await send(submission.value.content);
  if (!result.ok) {
    if (result.status >= 500) throw failureResponse(result);
    return json({ result: replyWithFailure(submission, result) }, { status: formFailureStatus(result) });
  }
  return redirectWithFlash(request, back, { kind: "success", key: "support:detail.sent" });
}

/** The ticket a user's or an operator's ticket page is about (`?ticketId=`); not found without a valid one. */
export function ticketIdParam(url: URL): number {
  const id = positiveId(url.searchParams.get("ticketId"));
  if (!id) throw notFound();
  return id;
}

/** A ticket page shows the close confirm step (no JavaScript) when asked for it and the ticket is not closed yet. */
export function closeConfirming(url: URL, ticket: { status: number }) {
  return url.searchParams.get("confirm") === "close" && ticket.status !== TicketStatus.CLOSED;
}

/**
 * A ticket page's action, for its asker or an operator: intent "reply" (the form, then `reply`) or "close"
 * (asks first, then `close`); either comes back to `here` with its flash. Any other intent is a 400.
 */
export async function ticketPageAction(
  request: Request,
  here: string,
  send: {
    reply: (content: string) => Promise<VueapiResult<unknown>>;
    close: () => Promise<VueapiResult<unknown>>;
  },
) {
  const formData = await request.formData();
  switch (intentOf(formData, ["reply", "close"])) {
    case "reply":
      return replyToTicket(request, formData, send.reply, here);
    case "close":
      return (
        closeNeedsConfirm(formData, new URL(request.url)) ??
        redirectAfter(request, await send.close(), here, "support:detail.closed")
      );
  }
}

/** Closing asks first: without JavaScript the answer is the confirm step (`?confirm=close`). */
export function closeNeedsConfirm(formData: FormData, here: URL) {
  if (formData.get("confirmed") === "yes") return null;
  const q = new URLSearchParams(here.search);
  q.set("confirm", "close");
  return redirect(`${here.pathname}?${q}`);
}

/**
 * A ticket's attachment as a download (docs/decisions/053): its bytes as the backend streams them, its type,
 * and the name the browser saves it under (the backend's Content-Disposition); a refusal is the error page.
 */
export function attachmentResponse(result: VueapiResult<Response>) {
  if (!result.ok) throw failureResponse(result);
  return fileResponse(result.data, { "Cache-Control": "private, no-store, no-transform" });
}
