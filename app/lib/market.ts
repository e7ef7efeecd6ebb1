/** Addresses of the chaincode market's pages (issue 15; docs/decisions/042). */
export const MARKET = "/g/home/DeveloperCommunity/ChaincodeMarket";
export const marketDownloadUrl = (marketPackageId: number) => `${MARKET}/download?marketPackageId=${marketPackageId}`;
export const marketPackageUrl = (marketPackageId: number) => `${MARKET}/Package?marketPackageId=${marketPackageId}`;
/** "Use in a new service": the publish wizard's first step with the package (app/lib/wizard.server.ts marketParam). */
export const newServiceUrl = (marketPackageId: number) =>
  `/g/home/PermissionedServices/PublishedServices/NewServices?appState=add&step=basic&market=${marketPackageId}`;
