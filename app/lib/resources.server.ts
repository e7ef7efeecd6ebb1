import enAuth from "../../locales/en/auth.json";
import enBilling from "../../locales/en/billing.json";
import enCommon from "../../locales/en/common.json";
import enErrors from "../../locales/en/errors.json";
import enForms from "../../locales/en/forms.json";
import enHome from "../../locales/en/home.json";
import enMessages from "../../locales/en/messages.json";
import enPages from "../../locales/en/pages.json";
import zhAuth from "../../locales/zh-CN/auth.json";
import zhBilling from "../../locales/zh-CN/billing.json";
import zhCommon from "../../locales/zh-CN/common.json";
import zhErrors from "../../locales/zh-CN/errors.json";
import zhForms from "../../locales/zh-CN/forms.json";
import zhHome from "../../locales/zh-CN/home.json";
import zhMessages from "../../locales/zh-CN/messages.json";
import zhPages from "../../locales/zh-CN/pages.json";

/** Every UI string of the portal, by language and namespace (locales/en, locales/zh-CN). */
export const resources = {
  en: { auth: enAuth, billing: enBilling, common: enCommon, errors: enErrors, forms: enForms, home: enHome, messages: enMessages, pages: enPages },
  "zh-CN": { auth: zhAuth, billing: zhBilling, common: zhCommon, errors: zhErrors, forms: zhForms, home: zhHome, messages: zhMessages, pages: zhPages },
} as const;

export type Namespace = keyof (typeof resources)["en"];
export function isNamespace(value: string): value is Namespace {
  return Object.prototype.hasOwnProperty.call(resources.en, value);
}
