/** The URLs of the configuration-upgrade pages. */

export const CONFIGURATION = "/g/home/Configuration";

export const CONFIGURATION_NEW = "/g/home/ConfigurationNew";

export const upgradeHref = (upgradeId: number) => `/g/home/ConfigurationDetail?upgradeId=${upgradeId}`;
