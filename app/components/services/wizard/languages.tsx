import { useTranslation } from "react-i18next";

/**
 * What runs where (docs/decisions/052), said before the publisher chooses a framework and a language and pays:
 * Solidity on the EVM frameworks runs on the embedded network; Node.js on Fabric deploys once the embedded Fabric
 * peer exists; Go and Java need a connected Fabric network. `fabricConnected`: whether this portal has one (null
 * when the page does not know yet, before the draft's first save).
 */
export function LanguageSupport({ fabricConnected }: { fabricConnected: boolean | null }) {
  const { t } = useTranslation("wizard");
  return (
    <section
      className="space-y-1 rounded-md border border-sky-200 bg-sky-50 p-3 text-sm text-slate-700"
      aria-labelledby="language-support-title"
      data-testid="language-support"
    >
      <h3 id="language-support-title" className="font-semibold">
        {t("runs.title")}
      </h3>
      <p>{t("runs.intro")}</p>
      <ul className="list-disc space-y-1 pl-5">
        <li>{t("runs.evm")}</li>
        <li>{t("runs.fabricNode")}</li>
      </ul>
      <p>
        {t("runs.connected")}{" "}
        {fabricConnected === null ? null : t(fabricConnected ? "runs.connectedYes" : "runs.connectedNo")}
      </p>
    </section>
  );
}
