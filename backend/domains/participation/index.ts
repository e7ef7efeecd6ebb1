import { downloadHandlersOf, handlersOf } from "#backend/http/router.ts";
import billing from "#backend/domains/billing/index.ts";
import { joinFigures, participationsWaiting } from "./figures.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { settleOrderBill } from "./audit.ts";
import { setParticipationEnv } from "./certs.ts";
import { issueTestIdentity, serviceCa } from "./certs.ts";
import fabric from "#backend/domains/fabric/index.ts";
import { seedDemoParticipation } from "./demo.ts";
import { jobs } from "./jobs.ts";
import { accessKit } from "./kit.ts";
import {
  applyJoinApp,
  confirmJoin,
  joinApp,
  payJoinOrder,
  queryReleaseCitys,
  queryReleaseRoles,
  queryRoles,
  view,
} from "./handlers/participant.ts";
import { certificateFile, getJoinParamList, myCertificates, participatedList } from "./handlers/participant-access.ts";
import {
  auditAppJoined,
  disableJoin,
  joinManageList,
  joinManageView,
  serviceCaCertificate,
} from "./handlers/publisher.ts";
import { opsDecide, opsList } from "./handlers/operator.ts";
import { placeJoin, setJoinState, testOrderDeadline, testServiceSettings } from "./fixtures.ts";

/** Joining services, the participation audit, certificates (SPEC §2, §4, §5; contract/participation.ts; docs/decisions/013). */
export default defineDomain({
  name: "participation",
  downloads: downloadHandlersOf({
    "participant-access-kit": accessKit,
    "service-ca-certificate": serviceCaCertificate,
  }),
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
    // A service's CA is the MSP of its Fabric channel (docs/decisions/065); made on first need.
    fabric.api.useServiceCas((d, app) => d.db.transaction((tx) => serviceCa(tx, d.env, app, d.now())));
  },
  api: {
    joinFigures,
    participationsWaiting,
    issueTestIdentity,
    placeJoin,
    setJoinState,
  },
  seedDemo: seedDemoParticipation,
  fixtures: handlersOf({
    "/test/participation/service": testServiceSettings,
    "/test/participation/order": testOrderDeadline,
  }),
});
