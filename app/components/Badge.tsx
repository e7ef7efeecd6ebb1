import type { ReactNode } from "react";

import type { Tone } from "#app/lib/tone.ts";

export type { Tone };

const TONES: Record<Tone, string> = {
  ok: "bg-green-50 text-green-700 ring-green-200",
  wait: "bg-amber-50 text-amber-800 ring-amber-200",
  bad: "bg-red-50 text-red-700 ring-red-200",
  info: "bg-sky-50 text-sky-700 ring-sky-200",
  off: "bg-slate-100 text-slate-600 ring-slate-200",
};

/** A status as a small coloured pill. */
export function Badge({ tone, testId, children }: { tone: Tone; testId?: string; children: ReactNode }) {
  return (
    <span
      data-testid={testId}
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}
