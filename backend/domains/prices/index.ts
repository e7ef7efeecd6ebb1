import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { listPrices, priceHistory, setPrices } from "./handlers.ts";

/**
 * The price catalogue operators edit (contract/prices.ts; docs/decisions/036): city-node and public-chain
 * plan prices in one generic shape, every change kept with its author and time. A change clears the
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
