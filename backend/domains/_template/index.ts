import { defineDomain } from "#backend/kit/domain.ts";
import { handlers } from "./handlers.ts";
import { isWithinLimit } from "./rules.ts";

/** The template domain (README.md): not in backend/index.ts's list, so nothing of it is served. */
export default defineDomain({
  name: "_template",
  handlers,
  api: { isWithinLimit },
});
