import { handlersOf } from "../../http/router";
import type { JobHandler } from "../../jobs/runner";
import {
  deactivate,
  enable,
  invite,
  payBill,
  publishedDetail,
  publishedList,
  refundDecide,
  refundList,
  replyComment,
  reviewDecide,
  reviewList,
  unsubscribe,
} from "./handlers";
import { serviceJobs as jobs } from "./jobs";
import { opsServiceDecide, opsServiceList, requestEnable } from "./suspension";

/** The /vueapi handlers of the service lifecycle after submission, by path (contract/services.ts). */
export const serviceHandlers = handlersOf({
  "/sys/chainAppInfo/publishedList": publishedList,
  "/sys/chainAppInfo/publishedDetail": publishedDetail,
  "/sys/chainAppInfo/payPublishBill": payBill,
  "/sys/chainAppInfo/deactivate": deactivate,
  "/sys/chainAppInfo/enable": enable,
  "/sys/chainAppInfo/unsubscribe": unsubscribe,
  "/sys/chainAppInfo/requestEnable": requestEnable,
  "/sys/chainAppInfo/invite": invite,
  "/sys/chainAppInfo/replyComment": replyComment,
  "/sys/ops/serviceReviews/list": reviewList,
  "/sys/ops/serviceReviews/decide": reviewDecide,
  "/sys/ops/refunds/list": refundList,
  "/sys/ops/refunds/decide": refundDecide,
  "/sys/ops/services/list": opsServiceList,
  "/sys/ops/services/decide": opsServiceDecide,
});

/** The service lifecycle's background jobs (test, deploy, payment expiry), by kind. */
export const serviceJobs: Record<string, JobHandler> = jobs;

export { payPublishBill } from "./payment";
