import { TestServiceStatus } from "#contract/test-services-codes.ts";

/** The actions each status offers (docs/decisions/034; the backend's machine decides again). */
export function actionsOf(status: number) {
  const S = TestServiceStatus;
  return {
    edit: status === S.NOT_DEPLOYED || status === S.FAILED || status === S.TO_REDEPLOY,
    deploy: status === S.NOT_DEPLOYED,
    upgrade: status === S.DEPLOYED,
    redeploy: status === S.DEPLOYED || status === S.FAILED || status === S.TO_REDEPLOY,
    remove: status !== S.DEPLOYING,
  };
}
