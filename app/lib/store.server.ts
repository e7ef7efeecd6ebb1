import { redirectAfter, type Api } from "./api.server.ts";

/** Follow or unfollow a listed service or product (SPEC §3 follower count), back to `here` with a flash. */
export async function followAction(
  request: Request,
  api: Api,
  target: { targetKind: "app" | "product"; targetId: number; follow: boolean },
  here: string,
) {
  return redirectAfter(
    request,
    await api.call("/sys/store/follow", target),
    here,
    target.follow ? "store:flash.followed" : "store:flash.unfollowed",
  );
}
