import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PlanStatus, ProjectStatus } from "#contract/public-chain-codes.ts";
import { Badge, type Tone } from "#app/components/Badge.tsx";
import { PC } from "#app/lib/public-chain-urls.ts";

/** Shared bits of the public-chain console (SPEC §2 PermissionlessServices; docs/decisions/026). */

const PROJECT_TONES: Record<number, Tone> = {
  [ProjectStatus.PENDING_DEPLOYMENT]: "wait",
  [ProjectStatus.FAILED]: "bad",
  [ProjectStatus.DEPLOYING]: "info",
  [ProjectStatus.TO_BE_ENABLED]: "wait",
  [ProjectStatus.PUBLISHED]: "info",
  [ProjectStatus.ENABLED]: "ok",
  [ProjectStatus.DEACTIVATED]: "off",
};

/** SPEC §4 open-alliance project status as a pill. */
export function ProjectStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("publicChain");
  return (
    <Badge tone={PROJECT_TONES[status] ?? "off"} testId="project-status">
      {t(`projectStatus.${status}`)}
    </Badge>
  );
}

export function PlanStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("publicChain");
  return (
    <Badge tone={status === PlanStatus.ACTIVE ? "ok" : "off"} testId="plan-status">
      {t(`planStatus.${status}`)}
    </Badge>
  );
}

export function KeyTypeLabel({ keyType }: { keyType: number }) {
  const { t } = useTranslation("publicChain");
  return <>{t(`keyType.${keyType}`)}</>;
}

/** The console's tabs: the nodes (Index) and my console (Home). */
export function ConsoleTabs({ current }: { current: "index" | "home" }) {
  const { t } = useTranslation("publicChain");
  const tab = (key: "index" | "home", to: string) => (
    <Link
      to={to}
      aria-current={current === key ? "page" : undefined}
      className={`border-b-2 px-3 py-2 text-sm font-medium ${current === key ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
    >
      {t(`tabs.${key}`)}
    </Link>
  );
  return (
    <nav aria-label={t("tabs.label")} className="flex gap-2 border-b border-slate-200">
      {tab("index", PC)}
      {tab("home", `${PC}/Home`)}
    </nav>
  );
}
