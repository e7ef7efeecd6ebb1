import { parseWithZod } from "@conform-to/zod/v4";
import { json } from "@remix-run/node";
import {
  contactAddressesFormSchema,
  LEGAL_PAGES,
  legalTextFormSchema,
  sectionsOf,
  textOf,
  type LegalPage,
  type LegalSection,
  type LegalTextForm,
} from "#contract/legal.ts";
import { apiFor, redirectAfter, type Api, type Viewer } from "#app/lib/api.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { fixedT } from "#app/lib/i18n.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { OPS_LEGAL } from "#app/lib/legal-urls.ts";

/**
 * The legal and contact texts (issue 30 item 16; docs/decisions/089): what the public pages show (an operator's
 * saved text, else the product's draft, marked as not reviewed) and the operations page that edits them
 * (`?page=<page>` opens a page's form).
 */

type Shipped = { title: string; intro: string; sections: LegalSection[] };

/** The draft the product ships for a page in one language (locales/<lang>/pages.json). */
function shippedDraft(lng: "en" | "zh-CN", page: LegalPage): Shipped {
  const t = fixedT(lng, "pages");
  const sections = t(`${page}.sections`, { returnObjects: true });
  return {
    title: t(`${page}.title`),
    intro: t(`${page}.intro`),
    sections: Array.isArray(sections) ? (sections as LegalSection[]) : [],
  };
}

/** The form's values of the shipped draft in both languages (what an operator starts from). */
export function shippedForm(page: LegalPage): LegalTextForm {
  const en = shippedDraft("en", page);
  const zh = shippedDraft("zh-CN", page);
  return {
    titleEn: en.title,
    titleZh: zh.title,
    introEn: en.intro,
    introZh: zh.intro,
    bodyEn: textOf(en.sections),
    bodyZh: textOf(zh.sections),
  };
}

/** A public legal or contact page: the text in the viewer's language, whether it is the draft, the addresses. */
export async function loadLegalPage(request: Request, viewer: Viewer, page: LegalPage) {
  const api = apiFor(request, viewer, { portalPage: true });
  const { text, contact } = await api.load("/anon/legal/page", { page });
  const zh = viewer.language === "zh-CN";
  if (!text) {
    const draft = shippedDraft(viewer.language, page);
    return { ...draft, draft: true, updatedAt: null, contact };
  }
  return {
    title: zh ? text.titleZh : text.titleEn,
    intro: zh ? text.introZh : text.introEn,
    sections: sectionsOf(zh ? text.bodyZh : text.bodyEn),
    draft: false,
    updatedAt: text.updatedAt,
    contact,
  };
}

export async function loadLegalOps(api: Api, url: URL) {
  const list = await api.load("/sys/ops/legal/list", {});
  const wanted = url.searchParams.get("page");
  const page = LEGAL_PAGES.find((p) => p === wanted) ?? null;
  const saved = page ? await api.load("/sys/ops/legal/detail", { page }) : null;
  const editing = page ? { page, values: saved ?? shippedForm(page), draft: !saved } : null;
  return { ...list, editing };
}

export async function legalOpsAction(request: Request, api: Api) {
  const formData = await request.formData();
  const intent = intentOf(formData, ["save", "contact"] as const);
  if (intent === "contact") {
    const submission = parseWithZod(formData, { schema: contactAddressesFormSchema });
    if (submission.status !== "success")
      return json({ form: "contact" as const, result: submission.reply() }, { status: 400 });
    const result = await api.call("/sys/ops/legal/contact", { form: submission.value });
    if (!result.ok)
      return json(
        { form: "contact" as const, result: replyWithFailure(submission, result, { fieldPrefix: "form." }) },
        { status: formFailureStatus(result) },
      );
    return redirectAfter(request, result, OPS_LEGAL, "legal:flash.contactSaved");
  }
  const page = LEGAL_PAGES.find((p) => p === formData.get("page"));
  if (!page) throw json({ messageKey: "errors:http.400" }, { status: 400 });
  const submission = parseWithZod(formData, { schema: legalTextFormSchema });
  if (submission.status !== "success")
    return json({ form: "text" as const, result: submission.reply() }, { status: 400 });
  const result = await api.call("/sys/ops/legal/save", { page, form: submission.value });
  if (!result.ok)
    return json(
      { form: "text" as const, result: replyWithFailure(submission, result, { fieldPrefix: "form." }) },
      { status: formFailureStatus(result) },
    );
  return redirectAfter(request, result, OPS_LEGAL, "legal:flash.saved");
}
