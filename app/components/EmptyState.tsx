import type { ReactNode } from "react";

/**
 * What a list shows when it has nothing: the message, an optional hint under it and an optional action (a link
 * or a button to make the first one). A card, centred; `testId` is the hook the specs look for ("empty" mostly).
 */
export function EmptyState({
  message,
  hint,
  action,
  testId,
  className,
}: {
  message: ReactNode;
  hint?: ReactNode;
  action?: ReactNode;
  testId?: string;
  /** Extra classes (a margin where the parent does not space its children). */
  className?: string;
}) {
  return (
    <div
      className={["card space-y-3 text-center text-slate-600", className ?? ""].filter(Boolean).join(" ")}
      data-testid={testId}
    >
      <div>{message}</div>
      {hint ? <p className="text-sm">{hint}</p> : null}
      {action ? <div>{action}</div> : null}
    </div>
  );
}
