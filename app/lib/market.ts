/** Addresses of the chaincode market's pages (issue 15; docs/decisions/042). */
export const MARKET = "/g/home/DeveloperCommunity/ChaincodeMarket";
export const marketDownloadUrl = (packageId: number) => `${MARKET}/download?packageId=${packageId}`;
export const marketPackageUrl = (packageId: number) => `${MARKET}/Package?packageId=${packageId}`;
/** "Use in a new service": the publish wizard's first step with the package (app/lib/wizard.server.ts marketParam). */
export const useInServiceUrl = (packageId: number) => `/g/home/PermissionedServices/PublishedServices/NewServices?appState=add&market=${packageId}`;
