/** The URLs of the published-services pages (SPEC §2 PermissionedServices). */

export const PUBLISHED = "/g/home/PermissionedServices/PublishedServices";

export const NEW_SERVICES = "/g/home/PermissionedServices/PublishedServices/NewServices";

export function detailHref(row: { appId: number; appVerId: number }, tab = "chaincode") {
  return `${PUBLISHED}/ServicesDetail?appId=${row.appId}&appVerId=${row.appVerId}&activeNames=${tab}`;
}

/** The publisher's download of the service's CA certificate (PEM; docs/decisions/068). */
export const serviceCaHref = (row: { appId: number }) => `${PUBLISHED}/ServiceCa?appId=${row.appId}`;

/** At 40 "Enable" opens the confirm page of a request to operations (docs/decisions/015); at 30 it posts at once. */
export const requestEnableHref = (row: { appId: number; appVerId: number }) =>
  `${detailHref(row)}&confirm=requestEnable`;
