import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { Checklist, ChecklistStep } from "#contract/platform.ts";
import { SubmitButton } from "#app/components/form-parts.tsx";

/** Where each step is done (issue 30 item 13). */
const STEP_LINKS: Record<ChecklistStep, string> = {
  profile: "/g/home/userCenter/information",
  recharge: "/g/home/userCenter/MyAccount/Recharge",
  service: "/g/home/PermissionedServices/PublishedServices/NewServices?appState=add",
  project: "/g/home/PermissionlessServices/NewProject",
};

/** Shown while some step is left and the account has not hidden it. */
export const showsChecklist = (c: Checklist | null): c is Checklist =>
  !!c && !c.dismissed && c.steps.some((s) => !s.done);

/**
 * A new account's getting-started checklist on the console home: each step ticked from the account's records,
 * each a link to the page that does it, hidden for good by a plain POST form (works without JavaScript).
 */
export function GettingStarted({ checklist }: { checklist: Checklist }) {
  const { t } = useTranslation("home");
  const done = checklist.steps.filter((s) => s.done).length;
  return (
    <section aria-labelledby="checklist" className="card space-y-3" data-testid="checklist">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="checklist" className="font-semibold">
          {t("checklist.title")}
        </h2>
        <span className="text-sm text-slate-600" data-testid="checklist-progress">
          {t("checklist.progress", { done, total: checklist.steps.length })}
        </span>
      </div>
      <p className="text-sm text-slate-700">{t("checklist.intro")}</p>
      <ol className="grid gap-2 sm:grid-cols-2">
        {checklist.steps.map((s) => (
          <li key={s.key} data-testid={`checklist-${s.key}`} data-done={s.done ? "yes" : "no"}>
            <Link
              to={STEP_LINKS[s.key]}
              className="flex items-center gap-3 rounded-md border border-slate-200 px-3 py-2 hover:border-brand-500"
            >
              <span
                aria-hidden="true"
                className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full border text-sm ${
                  s.done ? "border-green-700 bg-green-700 text-white" : "border-slate-400 text-transparent"
                }`}
              >
                ✓
              </span>
              <span className={s.done ? "text-slate-600 line-through" : "font-medium text-slate-900"}>
                {t(`checklist.steps.${s.key}`)}
              </span>
              <span className="sr-only">({s.done ? t("checklist.done") : t("checklist.todo")})</span>
            </Link>
          </li>
        ))}
      </ol>
      <Form method="post" action="/g/home/index">
        <SubmitButton intent="dismissChecklist" className="btn-secondary !py-1 text-sm">
          {t("checklist.dismiss")}
        </SubmitButton>
      </Form>
    </section>
  );
}
