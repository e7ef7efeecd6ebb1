/** The URLs of the IPFS pages. */

export const IPFS = "/g/home/IPFS";

export const serviceHref = (ipfsServiceId: number) => `${IPFS}/Service?ipfsServiceId=${ipfsServiceId}`;

export const trafficHref = (ipfsServiceId: number) => `${IPFS}/Traffic?ipfsServiceId=${ipfsServiceId}`;

export const downloadHref = (ipfsServiceId: number, cid: string) =>
  `${IPFS}/download?ipfsServiceId=${ipfsServiceId}&cid=${encodeURIComponent(cid)}`;
