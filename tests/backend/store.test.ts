import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { appComments, apps, appVersions } from "#backend/domains/services/tables.ts";
import { commentUseful, products, productServices } from "#backend/domains/store/tables.ts";
import { files } from "#backend/db/tables.ts";
import { demoCover } from "#backend/domains/store/demo.ts";
import { PRODUCT_TRANSITIONS, productTransition, type ProductEvent } from "#contract/store.ts";
import {
  callVueapi,
  downloadedBytes,
  downloadVueapi,
  inProcessVueapi,
  loginToken,
  refusedDownload,
  registeredUser,
  uploadVueapi,
} from "./in-process.ts";
import { okVia } from "../support/envelope.ts";

// The app store through the /vueapi protocol, in-process (like tests/backend/services.test.ts): services
// come from the tests-only /test/services path, joins and public flags from /test/store.
const service = inProcessVueapi("store", {
  TEST_CAPTCHA: "STO1",
  DEMO: "1",
  TEST_FIXTURES: "1",
  JOBS_INTERVAL_MS: "0",
});
const post = (p: string, body: object = {}, token?: string) => callVueapi(service, p, body, token);
/** An image uploaded as the caller's (docs/decisions/023), named by its upload id in the product's save. */
async function coverUpload(bytes: Uint8Array, token: string, name = "cover.png") {
  const res = await uploadVueapi(service, "cover", name, bytes, token);
  expect(res.code, JSON.stringify(res)).toBe(0);
  return { uploadId: res.data.uploadId as string };
}

const ok = okVia((p: string, body: object, token: string) => post(p, body, token));
const loginAs = (username: string, password?: string) => loginToken(service, username, password);
async function freshUser(enterprise = false) {
  const { userName, password } = await registeredUser(service, "sto", {
    userType: enterprise ? 2 : 1,
    // A certified enterprise (docs/decisions/071: company products wait for an approved certification).
    certState: enterprise ? 10 : 0,
  });
  return { userName, token: await loginAs(userName, password) };
}
const key = () => `k${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`.padEnd(20, "x");
/** A running (25) service of a fresh publisher, public unless said otherwise. */
async function runningService(opts: { verState?: number; isPublic?: boolean; name?: string } = {}) {
  const publisher = await freshUser();
  const created = await ok("/test/services", { verState: opts.verState ?? 25, name: opts.name }, publisher.token);
  if (opts.isPublic !== false) await ok("/test/store", { appId: created.appId, makePublic: true }, publisher.token);
  return { publisher, ...(created as { appId: number; appVerId: number; name: string }) };
}
const listed = async (token: string, name: string) =>
  (await ok("/sys/store/services", { name, pageSize: 50 }, token)).page.rows as any[];
const product = (extra: Record<string, unknown> = {}) => ({
  name: `Product ${key().slice(0, 10)}`,
  productType: "1",
  brief: "A short brief of the product.",
  description: "The whole description of what the product does.",
  suggestedPrice: "120.50",
  payMode: "1",
  ...extra,
});

let operator: string;
let person: string;
beforeAll(async () => {
  operator = await loginAs("demooperator");
  person = await loginAs("demoperson");
});

describe("all services", () => {
  it("lists only running public services", async () => {
    const tag = key().slice(0, 8);
    const running = await runningService({ name: `Run ${tag}` });
    await runningService({ name: `Private ${tag}`, isPublic: false });
    await runningService({ name: `Review ${tag}`, verState: 15 });
    await runningService({ name: `Stopped ${tag}`, verState: 30 });
    const rows = await listed(person, tag);
    expect(rows.map((r) => r.name)).toEqual([`Run ${tag}`]);
    expect(rows[0]).toMatchObject({
      appId: running.appId,
      participation: "none",
      own: false,
      followers: 0,
      ratingCount: 0,
      ratingAverage: null,
    });
    expect(rows[0].publishedAt).toBeTruthy();
    // A service not in the store has no store page either.
    const privateOne = (
      await service.services.db
        .select()
        .from(apps)
        .where(eq(apps.name, `Private ${tag}`))
    )[0];
    expect((await post("/sys/store/service", { appId: privateOne.id }, person)).message).toBe("MSG_40006");
  });

  it("shows each viewer their own participation state (§4)", async () => {
    const s = await runningService();
    const states: [number | null, string][] = [
      [null, "none"],
      [0, "reviewing"],
      [1, "reviewing"],
      [2, "none"],
      [4, "none"],
      [13, "reviewing"],
      [15, "participated"],
    ];
    for (const [joinState, expected] of states) {
      const viewer = await freshUser();
      if (joinState !== null) await ok("/test/store", { appId: s.appId, joinState }, viewer.token);
      const detail = await ok("/sys/store/service", { appId: s.appId }, viewer.token);
      expect(detail.participation, `audit ${joinState}`).toBe(expected);
      const [row] = await listed(viewer.token, s.name);
      expect(row.participation).toBe(expected);
    }
    const own = await ok("/sys/store/service", { appId: s.appId }, s.publisher.token);
    expect(own).toMatchObject({ own: true, participation: "none" });
  });

  it("searches by name, filters by industry and pages", async () => {
    const tag = key().slice(0, 8);
    for (let i = 0; i < 3; i++) await runningService({ name: `Page ${tag} ${i}` });
    const first = await ok("/sys/store/services", { name: tag, pageSize: 2, pageIndex: 1 }, person);
    const second = await ok("/sys/store/services", { name: tag, pageSize: 2, pageIndex: 2 }, person);
    expect(first.page.total).toBe(3);
    expect(first.page.rows).toHaveLength(2);
    expect(second.page.rows).toHaveLength(1);
    expect((await ok("/sys/store/services", { name: tag, industry: "logistics" }, person)).page.total).toBe(3);
    expect((await ok("/sys/store/services", { name: tag, industry: "finance" }, person)).page.total).toBe(0);
  });

  it("shows the demo service with its rating and followers", async () => {
    const [demo] = await listed(person, "Cold-chain traceability");
    expect(demo).toMatchObject({ participation: "participated", ratingAverage: 4, ratingCount: 1, hasCover: true });
    expect(demo.followers).toBeGreaterThanOrEqual(1);
  });
});

describe("follows, ratings and comments", () => {
  it("follows and unfollows a listed service, not an unlisted one", async () => {
    const s = await runningService();
    const viewer = await freshUser();
    expect(await ok("/sys/store/follow", { targetKind: "app", targetId: s.appId, follow: true }, viewer.token)).toEqual(
      { following: true, followers: 1 },
    );
    expect(await ok("/sys/store/follow", { targetKind: "app", targetId: s.appId, follow: true }, viewer.token)).toEqual(
      { following: true, followers: 1 },
    );
    expect((await ok("/sys/store/service", { appId: s.appId }, viewer.token)).following).toBe(true);
    expect(
      await ok("/sys/store/follow", { targetKind: "app", targetId: s.appId, follow: false }, viewer.token),
    ).toEqual({ following: false, followers: 0 });
    const hidden = await runningService({ isPublic: false });
    expect(
      (await post("/sys/store/follow", { targetKind: "app", targetId: hidden.appId, follow: true }, viewer.token))
        .message,
    ).toBe("MSG_40006");
  });

  it("lets participants only rate, 1 to 5, once each (again replaces)", async () => {
    const s = await runningService();
    const outsider = await freshUser();
    expect((await post("/sys/store/rate", { appId: s.appId, score: 5 }, outsider.token)).message).toBe("MSG_40003");
    expect((await post("/sys/store/rate", { appId: s.appId, score: 5 }, s.publisher.token)).message).toBe("MSG_40003");
    const reviewing = await freshUser();
    await ok("/test/store", { appId: s.appId, joinState: 3 }, reviewing.token);
    expect((await post("/sys/store/rate", { appId: s.appId, score: 5 }, reviewing.token)).message).toBe("MSG_40003");
    const a = await freshUser();
    const b = await freshUser();
    for (const u of [a, b]) await ok("/test/store", { appId: s.appId, joinState: 15 }, u.token);
    expect((await post("/sys/store/rate", { appId: s.appId, score: 6 }, a.token)).message).toBe("MSG_10001");
    expect((await post("/sys/store/rate", { appId: s.appId, score: 0 }, a.token)).message).toBe("MSG_10001");
    await ok("/sys/store/rate", { appId: s.appId, score: 2 }, a.token);
    expect(await ok("/sys/store/rate", { appId: s.appId, score: 5 }, b.token)).toEqual({
      ratingAverage: 3.5,
      ratingCount: 2,
    });
    expect(await ok("/sys/store/rate", { appId: s.appId, score: 4 }, a.token)).toEqual({
      ratingAverage: 4.5,
      ratingCount: 2,
    });
    expect((await ok("/sys/store/service", { appId: s.appId }, a.token)).myRating).toBe(4);
  });

  it("takes comments of at most 150 characters from participants only (§5)", async () => {
    const s = await runningService();
    const outsider = await freshUser();
    expect((await post("/sys/chainAppInfo/addComment", { appId: s.appId, text: "Nice" }, outsider.token)).message).toBe(
      "MSG_40003",
    );
    const reviewing = await freshUser();
    await ok("/test/store", { appId: s.appId, joinState: 0 }, reviewing.token);
    expect(
      (await post("/sys/chainAppInfo/addComment", { appId: s.appId, text: "Nice" }, reviewing.token)).message,
    ).toBe("MSG_40003");
    const p = await freshUser();
    await ok("/test/store", { appId: s.appId, joinState: 15 }, p.token);
    const long = await post("/sys/chainAppInfo/addComment", { appId: s.appId, text: "x".repeat(151) }, p.token);
    expect(long.message).toBe("MSG_10001");
    expect(long.data.fieldErrors.text).toEqual(["store:validation.commentTooLong"]);
    expect(
      (await post("/sys/chainAppInfo/addComment", { appId: s.appId, text: "   " }, p.token)).data.fieldErrors.text,
    ).toEqual(["validation.required"]);
    const { commentId } = await ok("/sys/chainAppInfo/addComment", { appId: s.appId, text: "界".repeat(150) }, p.token);
    const detail = await ok("/sys/store/service", { appId: s.appId }, outsider.token);
    expect(detail.comments[0]).toMatchObject({
      commentId,
      text: "界".repeat(150),
      reply: null,
      usefulCount: 0,
      markedByMe: false,
      userName: p.userName,
    });
    // An unlisted service takes no comments, even from its participants.
    const hidden = await runningService({ isPublic: false });
    await ok("/test/store", { appId: hidden.appId, joinState: 15 }, p.token);
    expect((await post("/sys/chainAppInfo/addComment", { appId: hidden.appId, text: "Hi" }, p.token)).message).toBe(
      "MSG_40006",
    );
  });

  it("marks a comment useful once per user, keeping the count equal to the marks", async () => {
    const s = await runningService();
    const p = await freshUser();
    await ok("/test/store", { appId: s.appId, joinState: 15 }, p.token);
    const { commentId } = await ok("/sys/chainAppInfo/addComment", { appId: s.appId, text: "Useful service" }, p.token);
    const viewers = [await freshUser(), await freshUser()];
    // Two marks at once by the same user: one counts.
    const twice = await Promise.all([
      post("/sys/store/markUseful", { commentId }, viewers[0].token),
      post("/sys/store/markUseful", { commentId }, viewers[0].token),
    ]);
    expect(twice.map((r) => r.code).sort()).toEqual([0, 1]);
    expect(twice.find((r) => r.code !== 0)!.message).toBe("MSG_40004");
    expect(await ok("/sys/store/markUseful", { commentId }, viewers[1].token)).toEqual({ usefulCount: 2 });
    expect((await post("/sys/store/markUseful", { commentId }, viewers[1].token)).message).toBe("MSG_40004");
    const [row] = await service.services.db.select().from(appComments).where(eq(appComments.id, commentId));
    const [{ marks }] = await service.services.db
      .select({ marks: sql<number>`count(*)::int` })
      .from(commentUseful)
      .where(eq(commentUseful.commentId, commentId));
    expect(row.usefulCount).toBe(2);
    expect(marks).toBe(2);
    expect((await ok("/sys/store/service", { appId: s.appId }, viewers[1].token)).comments[0].markedByMe).toBe(true);
  });
});

describe("products", () => {
  it("refuses company products to individuals and takes them from enterprises (§1, §6)", async () => {
    const individual = await freshUser();
    const refused = await post("/sys/product/save", { product: product({ company: "on" }) }, individual.token);
    expect(refused.message).toBe("MSG_40001");
    const enterprise = await freshUser(true);
    const { productId } = await ok("/sys/product/save", { product: product({ company: "on" }) }, enterprise.token);
    expect(await ok("/sys/product/submit", { productId }, enterprise.token)).toEqual({ status: 1 });
    // A personal product of an individual is fine.
    await ok("/sys/product/save", { product: product() }, individual.token);
  });

  it("follows the product state machine: every event allowed and refused", async () => {
    const owner = await freshUser(true);
    const events: ProductEvent[] = ["edit", "submit", "approve", "reject", "remove"];
    for (const status of [0, 1, 2, 3, 4]) {
      for (const event of events) {
        const { productId } = await ok("/sys/product/save", { product: product() }, owner.token);
        await service.services.db.update(products).set({ status }).where(eq(products.id, productId));
        const actor = event === "approve" || event === "reject" ? "operator" : "owner";
        const expected = productTransition(status, event, actor);
        const res =
          event === "edit"
            ? await post("/sys/product/save", { productId, product: product({ name: "Edited" }) }, owner.token)
            : event === "submit" || event === "remove"
              ? await post(`/sys/product/${event}`, { productId }, owner.token)
              : await post("/sys/ops/products/decide", { productId, decision: event, comments: "Reasons" }, operator);
        const [row] = await service.services.db.select().from(products).where(eq(products.id, productId));
        if (expected === null) {
          expect(res.code, `${event} from ${status}`).toBe(1);
          expect(row.status).toBe(status);
        } else {
          expect(res.code, `${event} from ${status}: ${JSON.stringify(res)}`).toBe(0);
          expect(row.status, `${event} from ${status}`).toBe(expected);
        }
      }
    }
    expect(PRODUCT_TRANSITIONS.length).toBe(5);
  });

  it("lists after operator approval, rejects with comments, and tells the owner", async () => {
    const owner = await freshUser();
    const name = `Listed ${key().slice(0, 8)}`;
    const { productId } = await ok("/sys/product/save", { product: product({ name }) }, owner.token);
    const other = await freshUser();
    expect((await post("/sys/product/detail", { productId }, other.token)).message).toBe("MSG_10002");
    await ok("/sys/product/submit", { productId }, owner.token);
    expect(
      (await ok("/sys/ops/products/list", {}, operator)).page.rows.some((r: any) => r.productId === productId),
    ).toBe(true);
    expect((await post("/sys/ops/products/decide", { productId, decision: "reject" }, operator)).message).toBe(
      "MSG_30014",
    );
    expect(
      await ok("/sys/ops/products/decide", { productId, decision: "reject", comments: "Add a cover" }, operator),
    ).toEqual({ status: 3 });
    const mine = (await ok("/sys/product/mine", {}, owner.token)).page.rows.find((r: any) => r.productId === productId);
    expect(mine).toMatchObject({ status: 3, reviewComments: "Add a cover" });
    await ok("/sys/product/save", { productId, product: product({ name }) }, owner.token);
    await ok("/sys/product/submit", { productId }, owner.token);
    expect(await ok("/sys/ops/products/decide", { productId, decision: "approve" }, operator)).toEqual({ status: 2 });
    const rows = (await ok("/sys/product/list", { name }, other.token)).page.rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      productId,
      status: 2,
      suggestedPriceCents: 12050,
      own: false,
      reviewComments: null,
    });
    expect(rows[0].listedAt).toBeTruthy();
    expect((await ok("/sys/system/message/list", {}, owner.token)).page.rows.map((m: any) => m.textKey)).toEqual(
      expect.arrayContaining(["messages.product.approved", "messages.product.rejected"]),
    );
    // Follow and unfollow a listed product; the owner removes it (2 → 4) and it leaves the store.
    expect(
      await ok("/sys/store/follow", { targetKind: "product", targetId: productId, follow: true }, other.token),
    ).toEqual({ following: true, followers: 1 });
    expect(
      await ok("/sys/store/follow", { targetKind: "product", targetId: productId, follow: false }, other.token),
    ).toEqual({ following: false, followers: 0 });
    await ok("/sys/product/remove", { productId }, owner.token);
    expect((await ok("/sys/product/list", { name }, other.token)).page.total).toBe(0);
    expect(
      (await post("/sys/store/follow", { targetKind: "product", targetId: productId, follow: true }, other.token))
        .message,
    ).toBe("MSG_40005");
  });

  it("never lets a user change another's product", async () => {
    const owner = await freshUser();
    const { productId } = await ok("/sys/product/save", { product: product() }, owner.token);
    const intruder = await freshUser();
    expect(
      (await post("/sys/product/save", { productId, product: product({ name: "Mine now" }) }, intruder.token)).message,
    ).toBe("MSG_10002");
    expect((await post("/sys/product/submit", { productId }, intruder.token)).message).toBe("MSG_10002");
    await service.services.db.update(products).set({ status: 2 }).where(eq(products.id, productId));
    expect((await post("/sys/product/remove", { productId }, intruder.token)).message).toBe("MSG_10002");
    const [row] = await service.services.db.select().from(products).where(eq(products.id, productId));
    expect(row).toMatchObject({ status: 2, userId: row.userId });
    expect(row.name).not.toBe("Mine now");
    expect((await ok("/sys/product/mine", {}, intruder.token)).page.total).toBe(0);
  });

  it("answers code 4 to users on operator-only paths", async () => {
    const user = await freshUser();
    for (const [p, body] of [
      ["/sys/ops/products/list", {}],
      ["/sys/ops/products/decide", { productId: 1, decision: "approve" }],
    ] as const) {
      const res = await post(p, body, user.token);
      expect(res.code, p).toBe(4);
    }
  });
});

describe("a buyer publishes a product", () => {
  async function listedProduct(owner: { token: string }, extra: Record<string, unknown> = {}) {
    const cover = await coverUpload(demoCover([1, 2, 3], [200, 100, 50]), owner.token);
    const { productId } = await ok("/sys/product/save", { product: product(extra), cover }, owner.token);
    await ok("/sys/product/submit", { productId }, owner.token);
    await ok("/sys/ops/products/decide", { productId, decision: "approve" }, operator);
    return productId as number;
  }

  it("gets a draft of their own, prefilled, once per form key", async () => {
    const owner = await freshUser();
    const name = `Kit ${key().slice(0, 8)}`;
    const productId = await listedProduct(owner, {
      name,
      brief: "Brief of the kit",
      description: "Long description of the kit",
    });
    const buyer = await freshUser();
    const k = key();
    const first = await ok("/sys/product/publish", { productId, idempotencyKey: k }, buyer.token);
    expect(first.replayed).toBe(false);
    expect(await ok("/sys/product/publish", { productId, idempotencyKey: k }, buyer.token)).toEqual({
      appId: first.appId,
      replayed: true,
    });
    const { draft } = await ok("/sys/chainAppInfo/wizard/draft", { appState: "add", appId: first.appId }, buyer.token);
    expect(draft).toMatchObject({ verState: 1, editable: true, wizardStep: "basic" });
    expect(draft.basic).toMatchObject({
      name,
      description: "Brief of the kit",
      introduction: "Long description of the kit",
      industry: "",
      framework: "",
      contactEmail: `${buyer.userName}@example.com`,
    });
    expect(draft.cover).toMatchObject({ name: "cover.png" });
    // The cover is a copy: a new file row, not the product's.
    const [app] = await service.services.db.select().from(apps).where(eq(apps.id, first.appId));
    const [prod] = await service.services.db.select().from(products).where(eq(products.id, productId));
    expect(app.coverFileId).not.toBe(prod.coverFileId);
    expect(
      (await service.services.db.select().from(files).where(eq(files.id, app.coverFileId!)))[0].size,
    ).toBeGreaterThan(0);
    expect(app.userId).not.toBe(prod.userId);
    const links = await service.services.db
      .select()
      .from(productServices)
      .where(eq(productServices.appId, first.appId));
    expect(links).toHaveLength(1);
    const [ver] = await service.services.db.select().from(appVersions).where(eq(appVersions.appId, first.appId));
    expect(ver.verState).toBe(1);
    // Another user cannot open it; a second publication gets a unique name.
    expect(
      (await post("/sys/chainAppInfo/wizard/draft", { appState: "add", appId: first.appId }, owner.token)).message,
    ).toBe("MSG_10002");
    const second = await ok("/sys/product/publish", { productId, idempotencyKey: key() }, buyer.token);
    const again = await ok("/sys/chainAppInfo/wizard/draft", { appState: "add", appId: second.appId }, buyer.token);
    expect(again.draft.basic.name).toBe(`${name} (2)`);
    const detail = await ok("/sys/product/detail", { productId }, buyer.token);
    expect(detail.myServices.map((m: any) => m.appId).sort()).toEqual([first.appId, second.appId].sort());
    // A double click: two submissions of one form key at once make one draft.
    const k2 = key();
    const both = await Promise.all([
      post("/sys/product/publish", { productId, idempotencyKey: k2 }, buyer.token),
      post("/sys/product/publish", { productId, idempotencyKey: k2 }, buyer.token),
    ]);
    expect(both.map((r) => r.code)).toEqual([0, 0]);
    expect(both[0].data.appId).toBe(both[1].data.appId);
    expect((await ok("/sys/product/detail", { productId }, buyer.token)).myServices).toHaveLength(3);
  });

  it("serves covers only of what the caller may see", async () => {
    const owner = await freshUser();
    const productId = await listedProduct(owner);
    const other = await freshUser();
    const listedCover = await downloadVueapi(service, "store-cover", { kind: "product", id: productId }, other.token);
    expect(listedCover.headers.get("Content-Type")).toBe("image/png");
    expect(
      Buffer.from(await listedCover.arrayBuffer())
        .subarray(1, 4)
        .toString("latin1"),
    ).toBe("PNG");
    const { productId: draft } = await ok(
      "/sys/product/save",
      { product: product(), cover: await coverUpload(demoCover([9, 9, 9], [99, 99, 99]), owner.token, "c.png") },
      owner.token,
    );
    const refused = (body: object, token: string) => refusedDownload(service, "store-cover", body, token);
    expect((await refused({ kind: "product", id: draft }, other.token)).message).toBe("MSG_10002");
    await downloadedBytes(service, "store-cover", { kind: "product", id: draft }, owner.token);
    const hidden = await runningService({ isPublic: false });
    expect((await refused({ kind: "app", id: hidden.appId }, other.token)).message).toBe("MSG_40006");
    // A file that is not an image is refused at its upload, whatever its name says.
    const fake = await uploadVueapi(service, "cover", "c.png", Buffer.from("%PDF-1.4\n"), owner.token);
    expect(fake).toMatchObject({
      message: "MSG_20021",
      data: { fieldErrors: { file: ["wizard:validation.file.coverType"] } },
    });
    // Another user's upload cannot be named.
    const notMine = await coverUpload(demoCover([9, 9, 9], [99, 99, 99]), other.token);
    expect(
      (await post("/sys/product/save", { product: product(), cover: notMine }, owner.token)).data.fieldErrors,
    ).toEqual({ cover: ["errors:MSG_20022"] });
  });

  it("refuses company products to individuals and unlisted products to everyone", async () => {
    const company = await freshUser(true);
    const productId = await listedProduct(company, { company: "on" });
    const individual = await freshUser();
    expect((await post("/sys/product/publish", { productId, idempotencyKey: key() }, individual.token)).message).toBe(
      "MSG_40001",
    );
    const enterpriseBuyer = await freshUser(true);
    await ok("/sys/product/publish", { productId, idempotencyKey: key() }, enterpriseBuyer.token);
    const { productId: draftOnly } = await ok("/sys/product/save", { product: product() }, company.token);
    expect(
      (await post("/sys/product/publish", { productId: draftOnly, idempotencyKey: key() }, individual.token)).message,
    ).toBe("MSG_40005");
  });
});

describe("SPEC §5 Blocking by bills: products", () => {
  it("an unpaid traffic bill refuses a new product, its submission and publishing a service from a product; paying opens them again", async () => {
    const owner = await freshUser();
    const cover = await coverUpload(demoCover([3, 2, 1], [50, 100, 200]), owner.token);
    const { productId: draft } = await ok("/sys/product/save", { product: product(), cover }, owner.token);
    const { productId: listed } = await ok("/sys/product/save", { product: product() }, owner.token);
    await ok("/sys/product/submit", { productId: listed }, owner.token);
    await ok("/sys/ops/products/decide", { productId: listed, decision: "approve" }, operator);
    const bill = await post(
      "/test/fixtures",
      { grantCents: 1_000, bills: [{ billType: 3, cycle: 99, totalCents: 300 }] },
      owner.token,
    );
    expect(bill.code, JSON.stringify(bill)).toBe(0);

    const refused = [
      await post("/sys/product/save", { product: product() }, owner.token),
      await post("/sys/product/submit", { productId: draft }, owner.token),
      await post("/sys/product/publish", { productId: listed, idempotencyKey: key() }, owner.token),
    ];
    expect(refused.map((r) => r.message)).toEqual(["MSG_30005", "MSG_30005", "MSG_30005"]);
    // Editing an existing product is not a new product.
    await ok(
      "/sys/product/save",
      { productId: draft, product: product({ name: "Edited while blocked" }) },
      owner.token,
    );

    const paid = await post(
      "/sys/system/clientInfo/h5billPay",
      { billId: bill.data.billIds[0], idempotencyKey: key() },
      owner.token,
    );
    expect(paid.code, JSON.stringify(paid)).toBe(0);
    await ok("/sys/product/save", { product: product() }, owner.token);
    expect(await ok("/sys/product/submit", { productId: draft }, owner.token)).toEqual({ status: 1 });
    expect((await ok("/sys/product/publish", { productId: listed, idempotencyKey: key() }, owner.token)).replayed).toBe(
      false,
    );
  });
});
