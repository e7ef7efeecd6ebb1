import type { CaptchaData } from "./captcha.ts";
import { failureResponse, type Api } from "./api.server.ts";

/**
 * A fresh single-use captcha for a form (SPEC §5): every render of the form gets its own. When this address
 * has asked for too many (HTTP 429, docs/decisions/021) the form still renders, with the translated message
 * where the image would be; any other failure goes to the error boundary.
 */
export async function loadCaptcha(api: Api): Promise<CaptchaData> {
  const result = await api.call("/anon/captcha/create", {});
  if (result.ok) return { captchaKey: result.data.captchaKey, image: result.data.image };
  if (result.status === 429) return { captchaKey: "", image: null, unavailableKey: result.messageKey };
  throw failureResponse(result);
}
