/** The URLs of the DID pages. */

export const DID_HOME = "/g/home/DID";

export const didHref = (didId: number) => `${DID_HOME}/Detail?didId=${didId}`;

export const credentialHref = (credentialId: number) => `${DID_HOME}/Credential?credentialId=${credentialId}`;
