/** The URLs of the IPFS pages. */

export const IPFS = "/g/home/IPFS";

export const serviceHref = (ipfsServiceId: number) => `${IPFS}/Service?ipfsServiceId=${ipfsServiceId}`;

export const trafficHref = (ipfsServiceId: number) => `${IPFS}/Traffic?ipfsServiceId=${ipfsServiceId}`;

export const downloadHref = (ipfsServiceId: number, cid: string) =>
  `${IPFS}/download?ipfsServiceId=${ipfsServiceId}&cid=${encodeURIComponent(cid)}`;

/** The same file viewed in the browser (as the gateway serves it) rather than saved. */
export const openHref = (ipfsServiceId: number, cid: string) => `${downloadHref(ipfsServiceId, cid)}&open=1`;
