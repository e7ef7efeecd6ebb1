/** The URLs of the cross-chain screens (SPEC §2 CrossChainService). */

export const CROSS_CHAIN = "/g/home/CrossChainService";

export const CROSS_CHAIN_INDEX = `${CROSS_CHAIN}/Index`;

export const selectHref = `${CROSS_CHAIN}/SelectService`;

export const dredgeHref = (appId: number) => `${CROSS_CHAIN}/Dredge?appId=${appId}`;

export const crossDetailHref = (appId: number) => `${CROSS_CHAIN}/CrossChainDetail?appId=${appId}`;

export const callHref = (appId: number, callId: number) =>
  `${CROSS_CHAIN}/CrossChainDetailView?appId=${appId}&callId=${callId}`;

export const exportHref = (appId: number, query: URLSearchParams) => {
  const q = new URLSearchParams(query);
  q.delete("page");
  q.set("appId", String(appId));
  return `${CROSS_CHAIN}/CrossChainDetail/export.csv?${q}`;
};
