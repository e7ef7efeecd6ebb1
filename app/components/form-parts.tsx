import { useNavigation } from "@remix-run/react";
import type { ButtonHTMLAttributes, ReactNode } from "react";
import { useTranslation } from "react-i18next";

/*
 * The parts of a form that need no form library: error messages and submit buttons. A page whose form has no
 * Conform fields imports these alone and ships without Conform (app/components/forms.tsx has the fields).
 */

/** Field and form error messages are i18n keys (house habit 1), translated here. */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] }) {
  const { t } = useTranslation("forms");
  if (!errors || errors.length === 0) return null;
  return (
    <div id={id} className="field-error" role="alert">
      <ul>
        {[...new Set(errors)].map((key) => (
          <li key={key}>{t(key)}</li>
        ))}
      </ul>
    </div>
  );
}

export function FormErrors({ id, errors }: { id?: string; errors?: string[] }) {
  const { t } = useTranslation("forms");
  if (!errors || errors.length === 0) return null;
  return (
    <div
      id={id}
      role="alert"
      data-testid="form-error"
      className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700"
    >
      {[...new Set(errors)].map((key) => (
        <p key={key}>{t(key)}</p>
      ))}
    </div>
  );
}

/** A submit button that says it is working while its form is being submitted (or, with `busy`, uploaded). */
export function SubmitButton({
  children,
  intent,
  className = "btn-primary w-full",
  busy: uploading = false,
}: {
  children: ReactNode;
  intent?: string;
  className?: string;
  busy?: boolean;
}) {
  const navigation = useNavigation();
  const { t } = useTranslation();
  const busy =
    uploading || (navigation.state === "submitting" && (!intent || navigation.formData?.get("intent") === intent));
  return (
    <button
      type="submit"
      name={intent ? "intent" : undefined}
      value={intent}
      className={className}
      disabled={busy}
      aria-busy={busy}
    >
      {busy ? t("actions.working") : children}
    </button>
  );
}

/**
 * A submit button beside fields in one row (`flex items-start`): level with the inputs, under a label-high spacer,
 * and aligned to the row's top, so a field's error appearing or leaving under its input never moves it. Aligned to
 * the bottom, it moved up as the error of the field just left disappeared, and a click at that moment missed it.
 */
export function ButtonBesideFields({ children, ...props }: ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <BesideFields>
      <button {...props}>{children}</button>
    </BesideFields>
  );
}

/** What ButtonBesideFields does for a button of another kind (a SubmitButton with its busy state). */
export function BesideFields({ children }: { children: ReactNode }) {
  return (
    <div>
      <span aria-hidden="true" className="label invisible">
        &nbsp;
      </span>
      {children}
    </div>
  );
}
