import type { FieldMetadata } from "@conform-to/react";
import { getInputProps, useField } from "@conform-to/react";
import { useLocation, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { POW_CAPTCHA_KEY, powSolution, type CaptchaData } from "#app/lib/captcha.ts";
import { ErrorList } from "./forms.tsx";

/**
 * A proof-of-work solution for this captcha, found by a Web Worker once the page runs JavaScript
 * (docs/decisions/061): "solving" meanwhile, null without a challenge, a worker or when the worker fails (the
 * image stays).
 */
function usePowSolution(captcha: CaptchaData): string | "solving" | null {
  const [state, setState] = useState<{ key: string; value: string | "solving" | null } | null>(null);
  const { pow, workerUrl, captchaKey } = captcha;
  useEffect(() => {
    if (!pow || !workerUrl || typeof Worker === "undefined") return;
    let worker: Worker;
    try {
      worker = new Worker(workerUrl);
    } catch {
      return;
    }
    setState({ key: captchaKey, value: "solving" });
    const give = (value: string | null) => {
      setState({ key: captchaKey, value });
      worker.terminate();
    };
    worker.onmessage = (event: MessageEvent<{ number: number } | null>) =>
      give(event.data ? powSolution(pow, event.data.number) : null);
    worker.onerror = () => give(null);
    worker.postMessage({
      algorithm: pow.algorithm,
      challenge: pow.challenge,
      maxnumber: pow.maxnumber,
      salt: pow.salt,
    });
    return () => worker.terminate();
  }, [pow, workerUrl, captchaKey]);
  return state?.key === captchaKey ? state.value : null;
}

/**
 * The captcha (SPEC §5 Login/Registration). A new one comes with every page load and after every submission
 * (they are single use). Without JavaScript it is the image, with "another image" as a plain link; with
 * JavaScript the page proves its work in the background ("verifying you are human") and submits the solution in
 * hidden fields; the image stays usable until then and whenever the worker cannot run.
 */
export function Captcha({ captcha, field }: { captcha: CaptchaData; field: FieldMetadata<string | undefined> }) {
  const { t } = useTranslation("auth");
  const revalidator = useRevalidator();
  const location = useLocation();
  const [meta] = useField<string | undefined>(field.name, { formId: field.formId });
  const props = getInputProps(meta, { type: "text" });
  const solution = usePowSolution(captcha);
  if (solution !== null && solution !== "solving")
    return (
      <div>
        <input type="hidden" name="captchaKey" value={POW_CAPTCHA_KEY} />
        <input type="hidden" name={meta.name} value={solution} />
        <p role="status" data-testid="captcha-verified" className="text-sm text-green-700">
          {t("captcha.verified")}
        </p>
        <ErrorList id={meta.errorId} errors={meta.errors} />
      </div>
    );
  return (
    <div>
      <label htmlFor={meta.id} className="label">
        {t("captcha.label")}
      </label>
      <input type="hidden" name="captchaKey" value={captcha.captchaKey} />
      <div className="flex items-center gap-3">
        <input {...props} key={captcha.captchaKey} defaultValue="" autoComplete="off" className="input max-w-[10rem]" />
        {captcha.image !== null ? (
          <img
            src={captcha.image}
            alt={t("captcha.alt")}
            width={160}
            height={56}
            className="h-14 w-[160px] rounded border border-slate-200 bg-white"
          />
        ) : (
          <p role="alert" data-testid="captcha-unavailable" className="text-sm text-red-700">
            {t(captcha.unavailableKey)}
          </p>
        )}
        <a
          href={location.pathname + location.search}
          className="link text-sm"
          onClick={(event) => {
            event.preventDefault();
            revalidator.revalidate();
          }}
        >
          {t("captcha.refresh")}
        </a>
      </div>
      {solution === "solving" ? (
        <p role="status" data-testid="captcha-verifying" className="text-sm text-slate-600">
          {t("captcha.verifying")}
        </p>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
