/** The URLs the store leads to outside itself. */

/** The publish wizard at the basic step of a draft (a buyer's service made from a product). */
export const wizardHref = (appId: number) =>
  `/g/home/PermissionedServices/PublishedServices/NewServices?appState=add&appId=${appId}&step=basic`;
