import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import { idempotencyKey } from "#contract/rules.ts";
import { SubmitButton } from "#app/components/form-parts.tsx";
import { FollowButton, ListingHeader, ProductStatusBadge } from "#app/components/store/listing.tsx";
import { wizardHref } from "#app/lib/store-urls.ts";
import { apiFor, redirectAfter, requireUser, type Api } from "#app/lib/api.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import { intentOf, parseFormOr400 } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { blockOf, unlessRefusedForBills } from "#app/lib/unpaid-guard.server.ts";
import { BlockedLink } from "#app/components/BlockedAction.tsx";
import { requiredId } from "#app/lib/params.server.ts";
import { newIdempotencyKey } from "#app/lib/payments.server.ts";
import { followAction } from "#app/lib/store.server.ts";
import { ProductStatus } from "#contract/store-codes.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["store", "billing"],
  breadcrumb: [
    { key: "menu.appStore" },
    { key: "menu.storeProducts", to: "/g/home/AppStore/Products" },
    { key: "titles.storeProduct" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("storeProduct", (d) => d.product?.name);

/** A listed product (or one of the caller's own): §3 Product fields, follow, "Publish as my service". */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const productId = requiredId(new URL(request.url), "id");
  const api = apiFor(request, viewer);
  const product = await api.load("/sys/product/detail", { productId });
  // Publishing makes a new service, which unpaid bills block (SPEC §5): the entry says so before the click.
  const block = product.status === ProductStatus.LISTED ? await blockOf(api, 1) : null;
  // Publishing makes a draft: the form carries a key issued here, so a double click or a reload makes one.
  return json({
    product,
    publishKey: product.status === ProductStatus.LISTED ? newIdempotencyKey() : null,
    block,
    language: viewer.language,
  });
}

const productRef = z.object({ productId: z.coerce.number().int().positive() });
const productHref = (productId: number) => `/g/home/AppStore/Product?id=${productId}`;

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const intent = intentOf(formData, ["publish", "follow", "unfollow"]);
  const api = apiFor(request, viewer);
  switch (intent) {
    case "publish":
      return publish(request, api, formData);
    case "follow":
    case "unfollow": {
      const { productId } = parseFormOr400(productRef, formData);
      return followAction(
        request,
        api,
        { targetKind: "product", targetId: productId, follow: intent === "follow" },
        productHref(productId),
      );
    }
  }
}

/** "Publish as my service": a draft service made from the product, opened in the wizard. */
async function publish(request: Request, api: Api, formData: FormData) {
  const v = parseFormOr400(productRef.extend({ idempotencyKey: idempotencyKey() }), formData);
  const here = productHref(v.productId);
  const result = await unlessRefusedForBills(
    request,
    await api.call("/sys/product/publish", { productId: v.productId, idempotencyKey: v.idempotencyKey }),
    "publishProduct",
  );
  return redirectAfter(
    request,
    result,
    result.ok ? wizardHref(result.data.appId) : here,
    "store:flash.published",
    here,
  );
}

export default function StoreProduct() {
  const { product: p, publishKey, block, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("store");
  const location = useLocation();
  return (
    <div className="space-y-4">
      <ListingHeader
        kind="product"
        id={p.productId}
        name={p.name}
        hasCover={p.hasCover}
        badge={p.status !== ProductStatus.LISTED ? <ProductStatusBadge status={p.status} /> : null}
        summary={p.brief}
      >
        <dl className="grid gap-2 text-sm sm:grid-cols-2">
          <div>
            <dt className="inline text-slate-500">{t("products.type")}: </dt>
            <dd className="inline">
              {t(`productTypes.${p.productType}`)}
              {p.company ? ` · ${t("products.company")}` : ""}
            </dd>
          </div>
          <div>
            <dt className="inline text-slate-500">{t("products.owner")}: </dt>
            <dd className="inline">{p.owner}</dd>
          </div>
          <div>
            <dt className="inline text-slate-500">{t("products.price")}: </dt>
            <dd className="inline font-semibold">{formatUsd(p.suggestedPriceCents, language)}</dd>
          </div>
          <div>
            <dt className="inline text-slate-500">{t("products.payMode")}: </dt>
            <dd className="inline">{t(`payModes.${p.payMode}`)}</dd>
          </div>
          {p.listedAt ? (
            <div>
              <dt className="inline text-slate-500">{t("products.listed")}: </dt>
              <dd className="inline">{formatDate(p.listedAt, language)}</dd>
            </div>
          ) : null}
          <div>
            <dd className="inline" data-testid="followers">
              {t("products.followers", { count: p.followers })}
            </dd>
          </div>
        </dl>
        <div className="flex flex-wrap items-center gap-2 pt-2">
          {publishKey && block ? (
            <BlockedLink
              to={location.pathname + location.search}
              action="publishProduct"
              block={block}
              className="btn-primary"
            >
              {t("product.publish")}
            </BlockedLink>
          ) : publishKey ? (
            <Form method="post" action={location.pathname + location.search}>
              <input type="hidden" name="productId" value={p.productId} />
              <input type="hidden" name="idempotencyKey" value={publishKey} />
              <SubmitButton intent="publish" className="btn-primary">
                {t("product.publish")}
              </SubmitButton>
            </Form>
          ) : null}
          {p.status === ProductStatus.LISTED || p.following ? (
            <FollowButton idName="productId" id={p.productId} following={p.following} />
          ) : null}
          {p.own ? (
            <Link to="/g/home/AppStore/MyProducts" className="link text-sm">
              {t("product.manage")}
            </Link>
          ) : null}
        </div>
        {publishKey ? <p className="text-xs text-slate-500">{t("product.publishHint")}</p> : null}
        {publishKey && p.company ? <p className="text-xs text-slate-500">{t("product.companyHint")}</p> : null}
        {p.own && p.reviewComments ? (
          <p className="text-sm text-slate-700">
            {t("product.review")}: {p.reviewComments}
          </p>
        ) : null}
      </ListingHeader>
      <section className="card">
        <h2 className="font-semibold">{t("product.description")}</h2>
        <p className="mt-2 whitespace-pre-line text-sm text-slate-700">{p.description}</p>
      </section>
      {p.myServices.length ? (
        <section className="card">
          <h2 className="font-semibold">{t("product.myServices")}</h2>
          <ul className="mt-2 list-disc pl-5 text-sm">
            {p.myServices.map((s) => (
              <li key={s.appId}>
                {s.name} ·{" "}
                <Link to={wizardHref(s.appId)} className="link">
                  {t("product.openDraft")}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
