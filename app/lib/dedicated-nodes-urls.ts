/** The URLs of the dedicated-node pages (SPEC §2 PrivatedNodes). */

export const PRN = "/g/home/PrivatedNodes";

export const newProjectHref = () => `${PRN}New`;

const withName = (prnProjectId: number, name: string) =>
  `prnProjectId=${prnProjectId}&prnProjectName=${encodeURIComponent(name)}`;

export const checkHref = (prnProjectId: number) => `${PRN}Check?prnProjectId=${prnProjectId}`;

export const configHref = (prnProjectId: number, name: string) => `${PRN}Config?${withName(prnProjectId, name)}`;

export const configNewHref = (prnProjectId: number, name: string) => `${PRN}ConfigNew?${withName(prnProjectId, name)}`;

export const configDetailHref = (prnProjectUpdateId: number, prnUpdateType: number, name: string) =>
  `${PRN}ConfigDetail?prnProjectUpdateId=${prnProjectUpdateId}&prnUpdateType=${prnUpdateType}&prnProjectName=${encodeURIComponent(name)}`;

export const billHref = (billId: number) => `/g/home/userCenter/BillDetail?billId=${billId}`;

export const caHref = (prnProjectId: number) => `${PRN}Ca?prnProjectId=${prnProjectId}`;
