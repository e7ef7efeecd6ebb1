import { defineDomain } from "../../kit/domain";
import { handlers } from "./handlers";
import { isWithinLimit } from "./rules";

/** The template domain (README.md): not in backend/index.ts's list, so nothing of it is served. */
export default defineDomain({
  name: "_template",
  handlers,
  api: { isWithinLimit },
});
