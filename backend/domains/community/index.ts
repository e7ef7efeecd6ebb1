import { downloadHandlersOf, handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { seedDemoCommunity } from "./demo.ts";
import {
  activeAnnouncements,
  announcement,
  announcements,
  feedRows,
  partnerLogo,
  partners,
  queryAllList,
  releaseNotes,
} from "./handlers/visitor.ts";
import {
  deletePartner,
  deletePost,
  opsPartners,
  opsPost,
  opsPosts,
  opsSignups,
  publishPost,
  savePartner,
  savePost,
} from "./handlers/operator.ts";
import { eventDetail, saveSignup } from "./handlers/user.ts";

/**
 * The developer community's content (issue 15; SPEC §1, §2 DeveloperCommunity, serviceNetworkLeague, system
 * announcements, §7 devGame paths; contract/community.ts; docs/decisions/040): news and events with sign-ups,
 * release notes, announcements with their banner window, and partners, written by operators in both languages.
 */
export default defineDomain({
  name: "community",
  downloads: downloadHandlersOf({ "partner-logo": partnerLogo }),
  handlers: handlersOf({
    "/api/devGame/h5queryAllList": queryAllList,
    "/sys/devGame/detail": eventDetail,
    "/sys/devGame/saveSingUpInfo": saveSignup,
    "/api/devGame/releaseNotes": releaseNotes,
    "/anon/community/feed": feedRows,
    "/anon/community/announcements": announcements,
    "/anon/community/announcement": announcement,
    "/anon/community/activeAnnouncements": activeAnnouncements,
    "/anon/community/partners": partners,
    "/sys/ops/community/posts": opsPosts,
    "/sys/ops/community/post": opsPost,
    "/sys/ops/community/savePost": savePost,
    "/sys/ops/community/publishPost": publishPost,
    "/sys/ops/community/deletePost": deletePost,
    "/sys/ops/community/signups": opsSignups,
    "/sys/ops/community/partners": opsPartners,
    "/sys/ops/community/savePartner": savePartner,
    "/sys/ops/community/deletePartner": deletePartner,
  }),
  seedDemo: seedDemoCommunity,
});
