import { useTranslation } from "react-i18next";
import type { ServiceDetail } from "#contract/services.ts";
import { Field } from "#app/components/details.tsx";
import { Table, td } from "#app/components/Table.tsx";

type ServiceChain = NonNullable<ServiceDetail["chain"]>;

/**
 * A FISCO BCOS or CITA service's own chain (docs/decisions/038), for its publisher (the chaincode tab) and its
 * participants (the Access page): the chain id, the JSON-RPC endpoint with the viewer's own key, and the contract
 * each Solidity package was deployed as. The texts are the `chain.*` keys of the services namespace.
 */
export function ServiceChainPanel({ chain, origin }: { chain: ServiceChain; origin: string }) {
  const { t } = useTranslation("services");
  const mono = "break-all font-mono text-xs";
  return (
    <section className="card space-y-3" aria-labelledby="service-chain" data-testid="service-chain">
      <h2 id="service-chain" className="font-semibold">
        {t("chain.title")}
      </h2>
      <dl className="grid gap-3 sm:grid-cols-2">
        <Field label={t("chain.chainId")}>
          <span className="font-mono" data-testid="chain-id">
            {chain.chainId}
          </span>
        </Field>
        <Field label={t("chain.name")}>
          <span className="font-mono">{chain.chainName}</span>
        </Field>
      </dl>
      <div>
        <p className="label">{t("chain.endpoint")}</p>
        <p className={mono} data-testid="chain-endpoint">{`${origin}${chain.endpointPath}`}</p>
        <p className="mt-1 text-xs text-slate-600">{t("chain.endpointHint")}</p>
      </div>
      {chain.contracts.length === 0 ? (
        <p className="text-sm text-slate-600">{t("chain.noContracts")}</p>
      ) : (
        <Table
          label={t("chain.title")}
          head={[t("chain.package"), t("chain.contract"), t("chain.address"), t("chain.transaction")]}
          regionTestId="chain-contracts"
        >
          {chain.contracts.map((c) => (
            <tr key={c.address} data-testid="chain-contract">
              <td className={td}>{c.packageName}</td>
              <td className={`${td} font-mono`}>{c.contractName}</td>
              <td className={`${td} ${mono}`} data-testid="chain-contract-address">
                {c.address}
              </td>
              <td className={`${td} ${mono}`}>
                {c.txHash} (#{c.blockNumber})
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
