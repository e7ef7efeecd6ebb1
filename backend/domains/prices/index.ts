import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { listPrices, priceHistory, setPrices } from "./handlers.ts";

/**
 * The price catalogue operators edit (contract/prices.ts; docs/decisions/036, 073): every priced item of the
 * site in one generic shape, each area written through its owning domain's api (prices/areas.ts), every change
 * kept with its author and time. A change clears the
 * catalogue kept per process (`services.constants`, docs/decisions/030), the one cache of it.
 */
export default defineDomain({
  name: "prices",
  handlers: handlersOf({
    "/sys/ops/prices/list": listPrices,
    "/sys/ops/prices/history": priceHistory,
    "/sys/ops/prices/set": setPrices,
  }),
});
