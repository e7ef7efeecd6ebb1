import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { listCityNodes } from "./handlers.ts";
import { isWithinLimit } from "./rules.ts";

/** The template domain (README.md): not in backend/index.ts's list, so nothing of it is served. */
export default defineDomain({
  name: "_template",
  // Every path the domain answers, mapped to its handler (handlers.ts, or handlers/<caller>.ts).
  handlers: handlersOf({
    "/anon/platform/cityNodes": listCityNodes,
  }),
  api: { isWithinLimit },
});
