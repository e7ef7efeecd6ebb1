import { handlersOf } from "../../http/router";
import type { JobHandler } from "../../jobs/runner";
import { participationJobs as jobs } from "./audit";
import {
  applyJoinApp,
  auditAppJoined,
  certificateFile,
  confirmJoin,
  disableJoin,
  getJoinParamList,
  joinApp,
  joinManageList,
  joinManageView,
  myCertificates,
  opsDecide,
  opsList,
  participatedList,
  payJoinOrder,
  queryReleaseCitys,
  queryReleaseRoles,
  queryRoles,
  testOrderDeadline,
  testServiceSettings,
  view,
} from "./handlers";

/** The /vueapi handlers of participation, by path (contract/participation.ts; docs/decisions/013). */
export const participationHandlers = handlersOf({
  "/sys/chainAppInfo/applyJoinApp": applyJoinApp,
  "/sys/chainAppInfo/queryRolesForAppList": queryRoles,
  "/sys/chainAppInfo/queryReleaseRolesForAppList": queryReleaseRoles,
  "/sys/chainAppInfo/queryReleaseCitysForAppList": queryReleaseCitys,
  "/sys/chainAppInfo/view": view,
  "/sys/chainAppInfo/joinApp": joinApp,
  "/sys/chainAppInfo/getJoinParamList": getJoinParamList,
  "/sys/chainAppInfo/participatedList": participatedList,
  "/sys/chainAppInfo/payJoinOrder": payJoinOrder,
  "/sys/chainAppInfo/confirmJoin": confirmJoin,
  "/sys/chainAppInfo/auditAppJoined": auditAppJoined,
  "/sys/chainAppInfo/disableJoin": disableJoin,
  "/sys/chainAppInfo/joinManageList": joinManageList,
  "/sys/chainAppInfo/joinManageView": joinManageView,
  "/sys/chainAppInfo/myCertificates": myCertificates,
  "/sys/chainAppInfo/certificateFile": certificateFile,
  "/sys/ops/participations/list": opsList,
  "/sys/ops/participations/decide": opsDecide,
  "/test/participation/service": testServiceSettings,
  "/test/participation/order": testOrderDeadline,
});

/** The participation audit's background jobs (the work order), by kind. */
export const participationJobs: Record<string, JobHandler> = jobs;

export { setParticipationEnv } from "./certs";
