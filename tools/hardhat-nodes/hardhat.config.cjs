// One Hardhat node of the test command's chain stage (scripts/hardhat-nodes.sh; docs/decisions/094): its chain id
// and its one funded account (the treasury the portal pays gas from) come from the script, a fresh key each run.
module.exports = {
  networks: {
    hardhat: {
      chainId: Number(process.env.HH_CHAIN_ID),
      accounts: [{ privateKey: process.env.HH_TREASURY_KEY, balance: "1000000000000000000000000000" }],
      // Every transaction is mined at once, as the embedded engine seals it.
      mining: { auto: true },
      // A transaction that reverts is mined with status 0 and its hash answered, as other nodes do (Hardhat's
      // default answers an error instead).
      throwOnTransactionFailures: false,
      loggingEnabled: false,
    },
  },
};
