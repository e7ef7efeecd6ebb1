import type { FieldMetadata } from "@conform-to/react";
import { getInputProps, useField } from "@conform-to/react";
import { useLocation, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { POW_CAPTCHA_KEY, powSolution, type CaptchaData } from "#app/lib/captcha.ts";
import { ErrorList } from "./form-parts.tsx";

type PowState = { solution: string } | "solving" | "failed" | null;

/**
 * The proof-of-work for this captcha, solved by a Web Worker once the page runs JavaScript
 * (docs/decisions/061): null before (or without a challenge or a worker), "solving", then the solution, or
 * "failed" when the worker cannot run (the image stays).
 */
function usePow(captcha: CaptchaData): PowState {
  const [state, setState] = useState<{ key: string; value: PowState } | null>(null);
  const { pow, workerUrl, captchaKey } = captcha;
  useEffect(() => {
    if (!pow || !workerUrl) return;
    const give = (value: PowState) => setState({ key: captchaKey, value });
    let worker: Worker;
    try {
      worker = new Worker(workerUrl);
    } catch {
      give("failed");
      return;
    }
    give("solving");
    worker.onmessage = (event: MessageEvent<{ number: number } | null>) => {
      give(event.data ? { solution: powSolution(pow, event.data.number) } : "failed");
      worker.terminate();
    };
    worker.onerror = () => {
      give("failed");
      worker.terminate();
    };
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
 * hidden fields; the image stays usable until then and whenever the worker cannot run. `data-captcha-state`
 * says which: image, solving, verified or failed.
 */
export function Captcha({ captcha, field }: { captcha: CaptchaData; field: FieldMetadata<string | undefined> }) {
  const { t } = useTranslation("auth");
  const revalidator = useRevalidator();
  const location = useLocation();
  const [meta] = useField<string | undefined>(field.name, { formId: field.formId });
  const props = getInputProps(meta, { type: "text" });
  const pow = usePow(captcha);
  if (pow !== null && typeof pow === "object")
    return (
      <div data-captcha-state="verified">
        <input type="hidden" name="captchaKey" value={POW_CAPTCHA_KEY} />
        <input type="hidden" name={meta.name} value={pow.solution} />
        <p role="status" data-testid="captcha-verified" className="text-sm text-green-700">
          {t("captcha.verified")}
        </p>
        <ErrorList id={meta.errorId} errors={meta.errors} />
      </div>
    );
  return (
    <div data-captcha-state={pow ?? "image"}>
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
      {pow === "solving" ? (
        <p role="status" data-testid="captcha-verifying" className="text-sm text-slate-600">
          {t("captcha.verifying")}
        </p>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
