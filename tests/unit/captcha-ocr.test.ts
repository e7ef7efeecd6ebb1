import { captchaText, renderCaptcha } from "#backend/domains/accounts/captcha-image.ts";
import { ocrAttacker, seeded } from "../support/captcha-ocr.ts";

/**
 * Issue 29 item 3 (docs/decisions/061): a short OCR script must not read the image captcha. The attacker is
 * first shown to be real on the plain style (the kind of image the old captcha was), then gets 0 of 100.
 */
function accepted(hardened: boolean, seed: number) {
  const read = ocrAttacker();
  const random = seeded(seed);
  let solved = 0;
  for (let i = 0; i < 100; i++) {
    const answer = captchaText(random);
    if (read(renderCaptcha(answer, { hardened, random })) === answer) solved++;
  }
  return solved;
}

describe("the image captcha against a simple OCR script", () => {
  it("the script reads the plain style (it is a real attacker)", () => {
    expect(accepted(false, 29)).toBeGreaterThanOrEqual(90);
  }, 60_000);

  it("the script gets none of 100 hardened captchas", () => {
    expect(accepted(true, 30)).toBe(0);
  }, 60_000);
});
