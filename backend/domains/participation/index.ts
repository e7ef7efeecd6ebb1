import { handlersOf } from "../../http/router";
import billing from "../billing";
import { joinFigures, participationsWaiting } from "./figures";
import { defineDomain } from "../../kit/domain";
import { settleOrderBill } from "./audit";
import { setParticipationEnv } from "./certs";
import { issueTestIdentity } from "./certs";
import { seedDemoParticipation } from "./demo";
import { jobs } from "./jobs";
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

/** Joining services, the participation audit, certificates (SPEC §2, §4, §5; contract/participation.ts; docs/decisions/013). */
export default defineDomain({
  name: "participation",
  handlers: handlersOf({
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
  }),
  jobs,
  start: (deps) => {
    setParticipationEnv(deps.env);
    billing.api.settleBillsWith("participation", settleOrderBill);
  },
  api: { joinFigures, participationsWaiting, issueTestIdentity },
  seedDemo: seedDemoParticipation,
  fixtures: handlersOf({
  "/test/participation/service": testServiceSettings,
  "/test/participation/order": testOrderDeadline,
  }),
});
