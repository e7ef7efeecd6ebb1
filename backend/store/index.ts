import type { Handlers } from "../http/router";
import { addComment, cover, follow, markUseful, rate, storeService, storeServices } from "./listing";
import { decideProduct, listProducts, myProducts, opsProducts, productDetail, publishProduct, removeProduct, saveProduct, submitProduct } from "./products";
import { storeFixture } from "./testing";

type H = Handlers[keyof Handlers];

/** The /vueapi handlers of the app store, by path (contract/store.ts; docs/decisions/014). */
export const storeHandlers = {
  "/sys/store/services": storeServices as H,
  "/sys/store/service": storeService as H,
  "/sys/store/follow": follow as H,
  "/sys/store/rate": rate as H,
  "/sys/chainAppInfo/addComment": addComment as H,
  "/sys/store/markUseful": markUseful as H,
  "/sys/store/cover": cover as H,
  "/sys/product/list": listProducts as H,
  "/sys/product/mine": myProducts as H,
  "/sys/product/detail": productDetail as H,
  "/sys/product/save": saveProduct as H,
  "/sys/product/submit": submitProduct as H,
  "/sys/product/remove": removeProduct as H,
  "/sys/product/publish": publishProduct as H,
  "/sys/ops/products/list": opsProducts as H,
  "/sys/ops/products/decide": decideProduct as H,
  "/test/store": storeFixture as H,
} satisfies Partial<Handlers>;

export { seedDemoStore } from "./demo";
