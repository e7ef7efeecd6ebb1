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
