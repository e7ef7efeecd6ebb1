import { createCustomCommon, Mainnet, type Common } from "@ethereumjs/common";

/** The hardforks in force: Mainnet's up to Prague, all active from genesis (docs/decisions/025). */
const LAST_HARDFORK = "prague";

export const GAS_LIMIT = 30_000_000n;

export function commonFor(chainId: number): Common {
  const until = Mainnet.hardforks.findIndex((h) => h.name === LAST_HARDFORK);
  const hardforks = Mainnet.hardforks.slice(0, until + 1).map((h) => ({ name: h.name, block: 0 }));
  return createCustomCommon(
    {
      chainId,
      name: `bsn-${chainId}`,
      hardforks,
      genesis: { gasLimit: Number(GAS_LIMIT), difficulty: 0, nonce: "0x0000000000000000", extraData: "0x" },
    },
    Mainnet,
    { hardfork: LAST_HARDFORK },
  );
}
