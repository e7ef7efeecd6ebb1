import type { FieldMetadata } from "@conform-to/react";
import { getInputProps, useField } from "@conform-to/react";
import { useLocation, useRevalidator } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { CaptchaData } from "#app/lib/captcha.ts";
import { ErrorList } from "./forms.tsx";

/**
 * The image captcha (SPEC §5 Login/Registration). A new one comes with every page load and after every
 * submission (they are single use); "another image" is a plain link, or a revalidation with JavaScript.
 */
export function Captcha({ captcha, field }: { captcha: CaptchaData; field: FieldMetadata<string | undefined> }) {
  const { t } = useTranslation("auth");
  const revalidator = useRevalidator();
  const location = useLocation();
  const [meta] = useField<string | undefined>(field.name, { formId: field.formId });
  const props = getInputProps(meta, { type: "text" });
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
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
