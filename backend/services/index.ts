import type { Handlers } from "../http/router";
import type { JobHandler } from "../jobs/runner";
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

type H = Handlers[keyof Handlers];

/** The /vueapi handlers of the service lifecycle after submission, by path (contract/services.ts). */
export const serviceHandlers = {
  "/sys/chainAppInfo/publishedList": publishedList as H,
  "/sys/chainAppInfo/publishedDetail": publishedDetail as H,
  "/sys/chainAppInfo/payPublishBill": payBill as H,
  "/sys/chainAppInfo/deactivate": deactivate as H,
  "/sys/chainAppInfo/enable": enable as H,
  "/sys/chainAppInfo/unsubscribe": unsubscribe as H,
  "/sys/chainAppInfo/requestEnable": requestEnable as H,
  "/sys/chainAppInfo/invite": invite as H,
  "/sys/chainAppInfo/replyComment": replyComment as H,
  "/sys/ops/serviceReviews/list": reviewList as H,
  "/sys/ops/serviceReviews/decide": reviewDecide as H,
  "/sys/ops/refunds/list": refundList as H,
  "/sys/ops/refunds/decide": refundDecide as H,
  "/sys/ops/services/list": opsServiceList as H,
  "/sys/ops/services/decide": opsServiceDecide as H,
} satisfies Partial<Handlers>;

/** The service lifecycle's background jobs (test, deploy, payment expiry), by kind. */
export const serviceJobs: Record<string, JobHandler> = jobs;

export { payPublishBill } from "./payment";
