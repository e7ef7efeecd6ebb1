import { json, redirect } from "@remix-run/node";
import * as z from "zod";
import type { PostKind } from "#contract/community-codes.ts";
import { apiFor, redirectAfter, requireOperator } from "./api.server.ts";
import { forgetAnnouncements, viewListItem } from "./community.server.ts";
import { intentOf, parseFormOr400 } from "./intents.server.ts";
import { pagingOf } from "./paging.ts";
import { oneOf, positiveParam } from "./params.ts";

/**
 * The operations area's lists of community posts (docs/decisions/040): one loader and one action for the
 * news-and-events, release-notes and announcements tabs. Publishing and withdrawing are one click; deleting
 * asks first (a dialog with JavaScript, a confirm step at ?confirm=<postId> without).
 */

export async function postListLoader(request: Request, kinds: readonly PostKind[]) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const kind = oneOf(kinds, url.searchParams.get("kind")) ?? kinds[0];
  const data = await apiFor(request, viewer).load("/sys/ops/community/posts", { kind, ...pagingOf(url) });
  const rows = data.page.rows.map((p) => viewListItem(p, viewer.language));
  const confirmId = positiveParam(url.searchParams.get("confirm"));
  const confirm = rows.find((r) => r.postId === confirmId) ?? null;
  return json({
    kind,
    kinds,
    rows,
    page: data.page,
    language: viewer.language,
    confirm: confirm ? { postId: confirm.postId, title: confirm.title } : null,
  });
}

const postAction = z.object({
  postId: z.coerce.number().int().positive(),
  kind: z.string().optional(),
  confirmed: z.literal("yes").optional(),
});

export async function postListAction(request: Request) {
  const viewer = await requireOperator(request);
  const formData = await request.formData();
  const intent = intentOf(formData, ["publish", "unpublish", "delete"]);
  const v = parseFormOr400(postAction, formData);
  const url = new URL(request.url);
  url.searchParams.delete("confirm");
  const here = url.pathname + (url.search === "?" ? "" : url.search);
  const api = apiFor(request, viewer);
  if (intent === "delete") {
    if (v.confirmed !== "yes") {
      url.searchParams.set("confirm", String(v.postId));
      return redirect(`${url.pathname}${url.search}`);
    }
    const result = await api.call("/sys/ops/community/deletePost", { postId: v.postId });
    forgetAnnouncements();
    return redirectAfter(request, result, here, "community:ops.deleted");
  }
  const result = await api.call("/sys/ops/community/publishPost", { postId: v.postId, decision: intent });
  forgetAnnouncements();
  return redirectAfter(
    request,
    result,
    here,
    intent === "publish" ? "community:ops.didPublish" : "community:ops.didUnpublish",
  );
}
