/** A captcha to show, or (image null) the message of why there is none: too many asked for from this address. */
export type CaptchaData =
  | { captchaKey: string; image: string; unavailableKey?: undefined }
  | { captchaKey: ""; image: null; unavailableKey: string };
