import { Link } from "@remix-run/react";
import type { MouseEvent, ReactNode } from "react";

/* The items of a row's "More" menu (app/components/RowActions.tsx), as the <details> list and the scripted menu show them. */

/** An item of the "More" menu: a link, or a submit button of a form rendered elsewhere on the page (`form` is its id). */
export type RowMenuItem = {
  key: string;
  label: ReactNode;
  /**
   * A screen-reader name when the label alone is ambiguous in a list (e.g. "Edit Cold-chain"): it names the row by what
   * its user called it, so the element is marked `data-user-label` (its label holds user data, e2e/words.spec.ts).
   */
  ariaLabel?: string;
  danger?: boolean;
  /** A line under the label (e.g. why an entry is blocked by unpaid bills). */
  note?: ReactNode;
  testId?: string;
  /** What the item does, as a machine-readable name (`data-action`; tests read it). */
  dataAction?: string;
  /**
   * With JavaScript, what choosing a submit item does instead of submitting (e.g. open the decision's confirm
   * dialog); without JavaScript the item stays a plain submit button and the server answers a confirm step.
   */
  onSelect?: () => void;
} & ({ to: string; submit?: never } | { submit: { form: string; name: string; value: string }; to?: never });

export const ITEM = "block w-full px-3 py-2 text-left text-sm";

function ItemBody({ item }: { item: RowMenuItem }) {
  return (
    <>
      <span className={item.danger ? "text-red-700" : "text-slate-800"}>{item.label}</span>
      {item.note ? <span className="block text-xs text-slate-600">{item.note}</span> : null}
    </>
  );
}

/**
 * Submits form `formId` as if a submit button named `name` with `value` had been clicked. The Headless UI menu
 * closes (and removes its items) on a click before a submit button's default action would run, so its items
 * are plain buttons that submit through a short-lived submitter inside the form.
 */
function submitWith(formId: string, name: string, value: string) {
  const form = document.getElementById(formId);
  if (!(form instanceof HTMLFormElement)) return;
  const submitter = document.createElement("button");
  submitter.type = "submit";
  submitter.name = name;
  submitter.value = value;
  submitter.hidden = true;
  form.appendChild(submitter);
  try {
    form.requestSubmit(submitter);
  } finally {
    submitter.remove();
  }
}

/** The item's element: a Link or a submit button tied to its form by id (so it works inside a portal or <details>). */
export function ItemElement({
  item,
  className,
  scripted = false,
  ...rest
}: {
  item: RowMenuItem;
  className: string;
  scripted?: boolean;
  onClick?: (event: MouseEvent<HTMLElement>) => void;
}) {
  if (item.submit) {
    const submit = item.submit;
    return (
      <button
        type={scripted ? "button" : "submit"}
        form={item.submit.form}
        name={item.submit.name}
        value={item.submit.value}
        aria-label={item.ariaLabel}
        data-user-label={item.ariaLabel ? "" : undefined}
        data-testid={item.testId}
        data-action={item.dataAction}
        className={className}
        {...rest}
        onClick={(event) => {
          // The menu's own handler (in `rest`, from Headless UI) closes it; then the form is submitted.
          rest.onClick?.(event);
          if (!scripted) return;
          if (item.onSelect) item.onSelect();
          else submitWith(submit.form, submit.name, submit.value);
        }}
      >
        <ItemBody item={item} />
      </button>
    );
  }
  return (
    <Link
      to={item.to}
      aria-label={item.ariaLabel}
      data-user-label={item.ariaLabel ? "" : undefined}
      data-testid={item.testId}
      data-action={item.dataAction}
      className={className}
      {...rest}
    >
      <ItemBody item={item} />
    </Link>
  );
}
