import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import * as z from "zod";
import { commentFormSchema, rateFormSchema } from "#contract/store.ts";
import { StoreServicePage } from "#app/components/store/ServicePage.tsx";
import { apiFor, redirectAfter, requireUser, type Api } from "#app/lib/api.server.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { intentOf, parseFormOr400 } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveParam } from "#app/lib/params.ts";
import { requiredId } from "#app/lib/params.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { followAction } from "#app/lib/store.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["store", "wizard"],
  breadcrumb: [
    { key: "menu.appStore" },
    { key: "menu.storeServices", to: "/g/home/AppStore/Services" },
    { key: "titles.storeService" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("storeService", (d) => d.service?.name);

/** A listed service in the app store: details, roles, comments; follow, rate, comment, mark useful, join. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const appId = requiredId(url, "appId");
  const commentPage = positiveParam(url.searchParams.get("page")) ?? 1;
  const service = await apiFor(request, viewer).load("/sys/store/service", { appId, commentPage });
  return json({ service, commentPage, language: viewer.language });
}

const listingRef = z.object({ appId: z.coerce.number().int().positive() });
const commentRef = listingRef.extend({ commentId: z.coerce.number().int().positive() });
const here = (appId: number) => `/g/home/AppStore/Service?appId=${appId}`;

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const intent = intentOf(formData, ["comment", "rate", "useful", "follow", "unfollow"]);
  const api = apiFor(request, viewer);
  switch (intent) {
    case "comment":
      return comment(request, api, formData);
    case "rate":
      return rate(request, api, formData);
    case "useful": {
      const { appId, commentId } = parseFormOr400(commentRef, formData);
      return redirectAfter(
        request,
        await api.call("/sys/store/markUseful", { commentId }),
        `${here(appId)}#comments`,
        "store:flash.useful",
        here(appId),
      );
    }
    case "follow":
    case "unfollow": {
      const { appId } = parseFormOr400(listingRef, formData);
      return followAction(
        request,
        api,
        { targetKind: "app", targetId: appId, follow: intent === "follow" },
        here(appId),
      );
    }
  }
}

/** A participant's comment (SPEC §3 Comment). */
async function comment(request: Request, api: Api, formData: FormData) {
  const submission = parseWithZod(formData, { schema: commentFormSchema });
  if (submission.status !== "success")
    return json({ kind: "comment" as const, result: submission.reply() }, { status: 400 });
  const result = await api.call("/sys/chainAppInfo/addComment", submission.value);
  if (!result.ok)
    return json({ kind: "comment" as const, result: replyWithFailure(submission, result) }, { status: 400 });
  return redirectWithFlash(request, `${here(submission.value.appId)}#comments`, {
    kind: "success",
    key: "store:flash.commented",
  });
}

/** A participant's rating, one to five stars. */
async function rate(request: Request, api: Api, formData: FormData) {
  const submission = parseWithZod(formData, { schema: rateFormSchema });
  if (submission.status !== "success")
    return json({ kind: "rate" as const, result: submission.reply() }, { status: 400 });
  const result = await api.call("/sys/store/rate", submission.value);
  if (!result.ok) return json({ kind: "rate" as const, result: replyWithFailure(submission, result) }, { status: 400 });
  return redirectWithFlash(request, here(submission.value.appId), { kind: "success", key: "store:flash.rated" });
}

export default function StoreService() {
  return <StoreServicePage {...useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}
