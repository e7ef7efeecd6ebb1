/** The URLs of the public-chain pages (SPEC §2 PermissionlessServices). */

export const PC = "/g/home/PermissionlessServices";

export const projectHref = (projectId: number) => `${PC}/Project?projectId=${projectId}`;

export const accountsHref = (projectId: number) => `${PC}/Accounts?projectId=${projectId}`;

export const accountHref = (accountId: number) => `${PC}/Account?accountId=${accountId}`;

export const contractsHref = (projectId: number) => `${PC}/Contracts?projectId=${projectId}`;

export const contractHref = (contractId: number) => `${PC}/Contract?contractId=${contractId}`;

/** A chain transaction of the account's (issue 35 §2, docs/decisions/089). */
export const transactionHref = (hash: string) => `${PC}/Transaction?hash=${encodeURIComponent(hash)}`;
