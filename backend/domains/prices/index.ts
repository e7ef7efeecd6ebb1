import { handlersOf } from "../../http/router";
import { defineDomain } from "../../kit/domain";
import { catalogueChanged, listPrices, onCatalogueChanged, priceHistory, setPrices } from "./handlers";

/**
 * The price catalogue operators edit (contract/prices.ts; docs/decisions/036): city-node and public-chain
 * plan prices in one generic shape, every change kept with its author and time. `catalogueChanged` is the
 * one hook a cache of the catalogue listens to (`onCatalogueChanged`).
 */
export default defineDomain({
  name: "prices",
  handlers: handlersOf({
    "/sys/ops/prices/list": listPrices,
    "/sys/ops/prices/history": priceHistory,
    "/sys/ops/prices/set": setPrices,
  }),
  api: { catalogueChanged, onCatalogueChanged },
});
