import { ddcFileProblem } from "#contract/ddc-codes.ts";
import { downloadHandlersOf, handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { ddcFeePrices } from "./prices.ts";
import { bind, challenge, listBindings, unbind } from "./handlers/user-binding.ts";
import { ddcDetail, listDdcs, setDdcPassword, transferDdc } from "./handlers/user.ts";
import { ddcOptions, mintDdc } from "./handlers/user-mint.ts";
import { ddcFile, viewDdc } from "./handlers/visitor.ts";
import { ddcJobs, scheduleDdcRecover } from "./recover.ts";

/**
 * DDC certificates and account binding (SPEC §2 ddc-view, ddc-QRCode, account-binding; §3 QR-code password;
 * §9 bill types 91 and 92; contract/ddc.ts; docs/decisions/045): ERC-721 tokens of one OpenZeppelin collection
 * per open-alliance project, minted and transferred from the user's custody accounts with real gas, their files
 * on the user's IPFS service or in the product's storage; addresses bound to accounts by EIP-4361 signatures.
 * It reaches the chain, IPFS, billing and public chain only through their api (and tables for joins).
 */
export default defineDomain({
  name: "ddc",
  downloads: downloadHandlersOf({ "ddc-file": ddcFile }),
  handlers: handlersOf({
    "/sys/ddc/options": ddcOptions,
    "/sys/ddc/mint": mintDdc,
    "/sys/ddc/list": listDdcs,
    "/sys/ddc/detail": ddcDetail,
    "/sys/ddc/transfer": transferDdc,
    "/sys/ddc/password": setDdcPassword,
    "/anon/ddc/view": viewDdc,
    "/sys/binding/challenge": challenge,
    "/sys/binding/bind": bind,
    "/sys/binding/list": listBindings,
    "/sys/binding/unbind": unbind,
  }),
  jobs: ddcJobs,
  // Interrupted mints and transfers are finished or failed and refunded at every start, then every 5 minutes.
  schedules: [scheduleDdcRecover],
  uploads: {
    ddc: {
      nameProblem: (name) => ddcFileProblem({ name, size: 1 }),
      messages: {
        required: "ddc:validation.fileRequired",
        tooLarge: "ddc:validation.fileTooLarge",
        extension: "ddc:validation.fileType",
        wrongType: "ddc:validation.fileContent",
      },
    },
  },
  api: {
    /** The operators' price catalogue area of DDC fees (docs/decisions/073). */
    priceAreas: { ddcFee: ddcFeePrices },
  },
});
