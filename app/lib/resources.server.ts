import enAuth from "../../locales/en/auth.json";
import enCommon from "../../locales/en/common.json";
import enErrors from "../../locales/en/errors.json";
import enForms from "../../locales/en/forms.json";
import enHome from "../../locales/en/home.json";
import enMessages from "../../locales/en/messages.json";
import enPages from "../../locales/en/pages.json";
import enPayments from "../../locales/en/payments.json";
import zhAuth from "../../locales/zh-CN/auth.json";
import zhCommon from "../../locales/zh-CN/common.json";
import zhErrors from "../../locales/zh-CN/errors.json";
import zhForms from "../../locales/zh-CN/forms.json";
import zhHome from "../../locales/zh-CN/home.json";
import zhMessages from "../../locales/zh-CN/messages.json";
import zhPages from "../../locales/zh-CN/pages.json";
import zhPayments from "../../locales/zh-CN/payments.json";

/** Every UI string of the portal, by language and namespace (locales/en, locales/zh-CN). */
export const resources = {
  en: { auth: enAuth, common: enCommon, errors: enErrors, forms: enForms, home: enHome, messages: enMessages, pages: enPages, payments: enPayments },
  "zh-CN": { auth: zhAuth, common: zhCommon, errors: zhErrors, forms: zhForms, home: zhHome, messages: zhMessages, pages: zhPages, payments: zhPayments },
} as const;

export type Namespace = keyof (typeof resources)["en"];
export function isNamespace(value: string): value is Namespace {
  return Object.prototype.hasOwnProperty.call(resources.en, value);
}
