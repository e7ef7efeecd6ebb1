import type { Api } from "./api.server";

/** A fresh single-use captcha for a form (SPEC §5): every render of the form gets its own. */
export async function loadCaptcha(api: Api) {
  const captcha = await api.load("/anon/captcha/create", {});
  return { captchaKey: captcha.captchaKey, image: captcha.image };
}
