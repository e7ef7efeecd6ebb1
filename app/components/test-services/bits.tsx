import { useTranslation } from "react-i18next";
import { TestServiceStatus } from "#contract/test-services-codes.ts";
import { Badge, type Tone } from "#app/components/Badge.tsx";

const TONE: Record<number, Tone> = {
  [TestServiceStatus.NOT_DEPLOYED]: "off",
  [TestServiceStatus.DEPLOYING]: "wait",
  [TestServiceStatus.DEPLOYED]: "ok",
  [TestServiceStatus.FAILED]: "bad",
  [TestServiceStatus.TO_REDEPLOY]: "info",
};

/** A test service's §4 status as a badge. */
export function TestServiceBadge({ status }: { status: number }) {
  const { t } = useTranslation("testServices");
  return (
    <Badge tone={TONE[status] ?? "off"} testId="test-service-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

/** The actions each status offers (docs/decisions/034; the backend's machine decides again). */
export function actionsOf(status: number) {
  const S = TestServiceStatus;
  return {
    edit: status === S.NOT_DEPLOYED || status === S.FAILED || status === S.TO_REDEPLOY,
    deploy: status === S.NOT_DEPLOYED,
    upgrade: status === S.DEPLOYED,
    redeploy: status === S.DEPLOYED || status === S.FAILED || status === S.TO_REDEPLOY,
    remove: status !== S.DEPLOYING,
  };
}
