import type { Handlers } from "../http/router";
import type { JobHandler } from "../jobs/runner";
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

type H = Handlers[keyof Handlers];

/** The /vueapi handlers of participation, by path (contract/participation.ts; docs/decisions/013). */
export const participationHandlers = {
  "/sys/chainAppInfo/applyJoinApp": applyJoinApp as H,
  "/sys/chainAppInfo/queryRolesForAppList": queryRoles as H,
  "/sys/chainAppInfo/queryReleaseRolesForAppList": queryReleaseRoles as H,
  "/sys/chainAppInfo/queryReleaseCitysForAppList": queryReleaseCitys as H,
  "/sys/chainAppInfo/view": view as H,
  "/sys/chainAppInfo/joinApp": joinApp as H,
  "/sys/chainAppInfo/getJoinParamList": getJoinParamList as H,
  "/sys/chainAppInfo/participatedList": participatedList as H,
  "/sys/chainAppInfo/payJoinOrder": payJoinOrder as H,
  "/sys/chainAppInfo/confirmJoin": confirmJoin as H,
  "/sys/chainAppInfo/auditAppJoined": auditAppJoined as H,
  "/sys/chainAppInfo/disableJoin": disableJoin as H,
  "/sys/chainAppInfo/joinManageList": joinManageList as H,
  "/sys/chainAppInfo/joinManageView": joinManageView as H,
  "/sys/chainAppInfo/myCertificates": myCertificates as H,
  "/sys/chainAppInfo/certificateFile": certificateFile as H,
  "/sys/ops/participations/list": opsList as H,
  "/sys/ops/participations/decide": opsDecide as H,
  "/test/participation/service": testServiceSettings as H,
  "/test/participation/order": testOrderDeadline as H,
} satisfies Partial<Handlers>;

/** The participation audit's background jobs (the work order), by kind. */
export const participationJobs: Record<string, JobHandler> = jobs;

export { setParticipationEnv } from "./certs";
