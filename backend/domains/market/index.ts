import { downloadHandlersOf, handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import {
  detail,
  download,
  list,
  opsList,
  opsSave,
  opsWithdraw,
  packageForDraft,
  solidityTemplates,
  writeShippedPackages,
} from "./handlers.ts";

/**
 * The chaincode market (SPEC §2 DeveloperCommunity/ChaincodeMarket; issue 15; contract/market.ts;
 * docs/decisions/042): sample packages that pass the service test job, downloadable, readable file by file,
 * usable in the publish wizard; operators add, update and withdraw entries.
 */
export default defineDomain({
  name: "market",
  downloads: downloadHandlersOf({ "market-package": download }),
  handlers: handlersOf({
    "/sys/market/list": list,
    "/sys/market/detail": detail,
    "/sys/ops/market/list": opsList,
    "/sys/ops/market/save": opsSave,
    "/sys/ops/market/withdraw": opsWithdraw,
  }),
  start: writeShippedPackages,
  api: {
    /** A published entry to copy into a new wizard draft (its zip's file id, functions and fields). */
    packageForDraft,
    /** The published Solidity entries with their `.sol` files, as templates of the online IDE. */
    solidityTemplates,
  },
});
