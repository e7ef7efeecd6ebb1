import { useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

export type Flash = { kind: "success" | "error" | "info"; key: string; params?: Record<string, string> };

const STYLES: Record<Flash["kind"], string> = {
  success: "border-green-200 bg-green-50 text-green-800",
  error: "border-red-200 bg-red-50 text-red-800",
  info: "border-brand-100 bg-brand-50 text-brand-900",
};

/** The namespace of a flash's key ("wizard:flash.saved" → wizard), for the root to load it before it shows. */
export function flashNamespaces(flash: Flash | null | undefined): string[] {
  const ns = flash?.key.includes(":") ? flash.key.slice(0, flash.key.indexOf(":")) : null;
  return ns ? [ns] : [];
}

/** A flash the browser received and has not shown yet (app/root.tsx clientLoader). */
let undelivered: Flash | null = null;

/** Notes a flash as received and not yet shown; answers it. */
export function awaitingDelivery(flash: Flash | null): Flash | null {
  undelivered = flash;
  return flash;
}

/** The flash received and never shown, once. */
export function takeUndelivered(): Flash | null {
  const flash = undelivered;
  undelivered = null;
  return flash;
}

/**
 * The flash the root loader delivered, shown once on the page it was delivered with (issue 30 item 2). The
 * server reads the flash cookie once; in the browser the root's data stays across client-side navigations,
 * so the banner belongs to the history entry it arrived on: following a link (or Back) leaves it behind for
 * good, and so does submitting a form on the page (the new submission's outcome is what matters then,
 * whether the server answers or the browser's own validation refuses it). Without JavaScript every page is
 * a new document and the cookie already says it once.
 */
export function useFlashOnce(flash: Flash | null): Flash | null {
  const { key } = useLocation();
  const [shown, setShown] = useState({ flash, key, over: false });
  const fresh = shown.flash !== flash;
  const left = !fresh && !shown.over && shown.key !== key;
  // A new delivery or a new page: state derived during render (React re-renders at once, nothing flickers).
  if (fresh) setShown({ flash, key, over: false });
  else if (left) setShown({ ...shown, over: true });
  const visible = fresh ? flash : left || shown.over ? null : flash;

  useEffect(() => {
    if (visible && visible === undelivered) undelivered = null;
  }, [visible]);
  useEffect(() => {
    if (!visible) return;
    const onSubmit = (event: SubmitEvent) => {
      if (isFormLibrarySubmit(event)) return;
      setShown((s) => ({ ...s, over: true }));
    };
    document.addEventListener("submit", onSubmit, true);
    return () => document.removeEventListener("submit", onSubmit, true);
  }, [visible]);
  return visible;
}

/**
 * Conform's own submissions: to validate a field on blur (and for its list intents) it submits the form with
 * a hidden button named `__intent__` and cancels that submission itself. They are not the person's, so they
 * leave the flash alone. Hiding it then moved the page between the mouse's down and up on a submit button
 * (the blur of the field being left happens on mousedown), so the click landed beside the button and the
 * step never submitted (the wizard's certificate step, e2e/publish-journey.spec.ts).
 */
export function isFormLibrarySubmit(event: Pick<SubmitEvent, "submitter">): boolean {
  const submitter = event.submitter as HTMLButtonElement | HTMLInputElement | null;
  return submitter?.name === CONFORM_INTENT;
}

/** The name Conform reserves for its intent submitter (INTENT in @conform-to/dom, not exported by its React package). */
const CONFORM_INTENT = "__intent__";

/** A flash message from the server (house habit 5), translated where it is shown. */
export function FlashBanner({ flash }: { flash: Flash }) {
  const { t } = useTranslation(["common", ...flashNamespaces(flash)]);
  return (
    <div
      role={flash.kind === "error" ? "alert" : "status"}
      data-testid="flash"
      className={`border-b px-4 py-2 text-center text-sm ${STYLES[flash.kind]}`}
    >
      {t(flash.key, flash.params)}
    </div>
  );
}
