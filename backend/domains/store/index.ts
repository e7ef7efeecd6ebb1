import { handlersOf } from "../../http/router";
import { addComment, cover, follow, markUseful, rate, storeService, storeServices } from "./listing";
import { decideProduct, listProducts, myProducts, opsProducts, productDetail, publishProduct, removeProduct, saveProduct, submitProduct } from "./products";
import { storeFixture } from "./fixtures";

/** The /vueapi handlers of the app store, by path (contract/store.ts; docs/decisions/014). */
export const storeHandlers = handlersOf({
  "/sys/store/services": storeServices,
  "/sys/store/service": storeService,
  "/sys/store/follow": follow,
  "/sys/store/rate": rate,
  "/sys/chainAppInfo/addComment": addComment,
  "/sys/store/markUseful": markUseful,
  "/sys/store/cover": cover,
  "/sys/product/list": listProducts,
  "/sys/product/mine": myProducts,
  "/sys/product/detail": productDetail,
  "/sys/product/save": saveProduct,
  "/sys/product/submit": submitProduct,
  "/sys/product/remove": removeProduct,
  "/sys/product/publish": publishProduct,
  "/sys/ops/products/list": opsProducts,
  "/sys/ops/products/decide": decideProduct,
  "/test/store": storeFixture,
});

export { seedDemoStore } from "./demo";
