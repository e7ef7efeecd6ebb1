import { downloadHandlersOf, handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { seedDemoStore } from "./demo.ts";
import { productsWaiting } from "./figures.ts";
import {
  addComment,
  cover,
  follow,
  listProducts,
  markUseful,
  productDetail,
  rate,
  storeService,
  storeServices,
} from "./handlers/user.ts";
import { myProducts, publishProduct, removeProduct, saveProduct, submitProduct } from "./handlers/publisher.ts";
import { decideProduct, opsProducts } from "./handlers/operator.ts";
import { storeFixture } from "./fixtures.ts";

/** The app store: public services, products, follows, ratings and comments (SPEC §2, §3, §4; contract/store.ts; docs/decisions/014). */
export default defineDomain({
  name: "store",
  downloads: downloadHandlersOf({ "store-cover": cover }),
  handlers: handlersOf({
    "/sys/store/services": storeServices,
    "/sys/store/service": storeService,
    "/sys/store/follow": follow,
    "/sys/store/rate": rate,
    "/sys/chainAppInfo/addComment": addComment,
    "/sys/store/markUseful": markUseful,
    "/sys/product/list": listProducts,
    "/sys/product/mine": myProducts,
    "/sys/product/detail": productDetail,
    "/sys/product/save": saveProduct,
    "/sys/product/submit": submitProduct,
    "/sys/product/remove": removeProduct,
    "/sys/product/publish": publishProduct,
    "/sys/ops/products/list": opsProducts,
    "/sys/ops/products/decide": decideProduct,
  }),
  api: { productsWaiting },
  seedDemo: seedDemoStore,
  fixtures: handlersOf({
    "/test/store": storeFixture,
  }),
});
