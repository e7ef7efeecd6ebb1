import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { opsDelete, opsDetail, opsList, opsMove, opsPublish, opsSave, page, search, toc } from "./handlers.ts";
import { writeManual } from "./manual.ts";

/**
 * The documentation and help manual (SPEC §2 documentation, help manual; issue 15; contract/docs.ts;
 * docs/decisions/042): bilingual pages in a tree, searchable in both languages, managed by operators; the
 * manual the product ships is written at start without overwriting an operator's edit.
 */
export default defineDomain({
  name: "docs",
  handlers: handlersOf({
    "/anon/docs/toc": toc,
    "/anon/docs/page": page,
    "/anon/docs/search": search,
    "/sys/ops/docs/list": opsList,
    "/sys/ops/docs/detail": opsDetail,
    "/sys/ops/docs/save": opsSave,
    "/sys/ops/docs/move": opsMove,
    "/sys/ops/docs/publish": opsPublish,
    "/sys/ops/docs/delete": opsDelete,
  }),
  start: writeManual,
});
