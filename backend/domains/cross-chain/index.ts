import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { crossChainCallPrices } from "./prices.ts";
import { call, calls, send, targets } from "./handlers/user-calls.ts";
import { callFixture } from "./fixtures.ts";
import { close, deactivate, detail, dredge, listServices, selectable } from "./handlers/user.ts";
import { pending, review } from "./handlers/operator.ts";
import { upgradingNow } from "./handlers/shared.ts";
import { relayerHealth, relayOnce, startRelayer, stopRelayer } from "./relayer.ts";
import { markBilled, weeklyCrossChainCalls } from "./billing.ts";
import { saveServiceStateWith } from "./service-state.ts";

/**
 * Cross-chain services (SPEC §2 CrossChainService, §3, §4, §5, §8, §9; contract/cross-chain.ts;
 * docs/decisions/048): services opened to cross-chain under operator review, the two protocols' message
 * contracts deployed on the chains involved, and the relayer that delivers each message and records the call.
 * The weekly cross-chain bills are made by billing's weekly job from `weeklyCrossChainCalls`.
 */
export default defineDomain({
  name: "cross-chain",
  handlers: handlersOf({
    "/sys/crossChain/list": listServices,
    "/sys/crossChain/selectable": selectable,
    "/sys/crossChain/dredge": dredge,
    "/sys/crossChain/deactivate": deactivate,
    "/sys/crossChain/close": close,
    "/sys/crossChain/detail": detail,
    "/sys/crossChain/calls": calls,
    "/sys/crossChain/call": call,
    "/sys/crossChain/targets": targets,
    "/sys/crossChain/send": send,
    "/sys/ops/crossChain/pending": pending,
    "/sys/ops/crossChain/review": review,
  }),
  fixtures: handlersOf({ "/test/crossChain/call": callFixture }),
  start: startRelayer,
  stop: stopRelayer,
  async health(deps) {
    return relayerHealth(deps);
  },
  api: {
    /** The operators' price catalogue area of cross-chain calls (docs/decisions/073). */
    priceAreas: { crossChainCall: crossChainCallPrices },
    weeklyCrossChainCalls,
    markBilled,
    upgradingNow,
    relayOnce,
    /** The services domain hands in its write of a service's cross-chain state at start (service-state.ts). */
    saveServiceStateWith,
  },
});
