import { readFileSync } from "node:fs";
import path from "node:path";
import type { CaptchaData } from "./captcha.ts";
import { failureResponse, type Api } from "./api.server.ts";

let workerUrl: string | null | undefined;

/**
 * The proof-of-work solver's URL, from the manifest scripts/build-workers.mjs writes beside the browser build
 * (its name is content-hashed, as the build's assets are served immutable); null without one (`remix dev`).
 */
function captchaWorkerUrl(): string | null {
  if (workerUrl === undefined) {
    try {
      const manifest = JSON.parse(readFileSync(path.resolve("public/build/workers/manifest.json"), "utf8")) as Record<
        string,
        string
      >;
      workerUrl = manifest["captcha-pow.worker"] ?? null;
    } catch {
      workerUrl = null;
    }
  }
  return workerUrl;
}

/**
 * A fresh single-use captcha for a form (SPEC §5): every render of the form gets its own. When this address
 * has asked for too many (HTTP 429, docs/decisions/021) the form still renders, with the translated message
 * where the image would be; any other failure goes to the error boundary.
 */
export async function loadCaptcha(api: Api): Promise<CaptchaData> {
  const result = await api.call("/anon/captcha/create", {});
  if (result.ok)
    return {
      captchaKey: result.data.captchaKey,
      image: result.data.image,
      pow: result.data.pow,
      workerUrl: captchaWorkerUrl(),
    };
  if (result.status === 429)
    return { captchaKey: "", image: null, unavailableKey: result.messageKey, pow: null, workerUrl: null };
  throw failureResponse(result);
}
