import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { TestService } from "#contract/test-services.ts";
import { Field } from "#app/components/details.tsx";

/** SPEC §3 Test service access parameters, once deployed: codes, chain, addresses and the access URL with its test key. */
export function AccessParameters({ service, origin }: { service: TestService; origin: string }) {
  const { t } = useTranslation("testServices");
  const mono = "break-all font-mono text-sm";
  return (
    <section className="card space-y-3" aria-labelledby="access-parameters" data-testid="access-parameters">
      <h2 id="access-parameters" className="text-lg font-semibold">
        {t("access.title")}
      </h2>
      <dl className="grid gap-3 sm:grid-cols-2">
        <Field label={t("access.userCode")}>
          <span className={mono}>{service.userCode}</span>
        </Field>
        <Field label={t("access.appCode")}>
          <span className={mono}>{service.appCode}</span>
        </Field>
        <Field label={t("access.chainName")}>
          <span className={mono}>{service.chainName ?? "—"}</span>
        </Field>
        <Field label={t("access.chainId")}>
          <span className={mono}>{service.chainId ?? "—"}</span>
        </Field>
        <Field label={t("access.contractAddress")}>
          <span className={mono} data-testid="contract-address">
            {service.contractAddress ?? "—"}
          </span>
        </Field>
        <Field label={t("access.chaincodeAddress")}>
          <span className={mono}>{service.chaincodeAddress ?? "—"}</span>
        </Field>
        <Field label={t("access.deploymentName")}>
          <span className={mono}>{service.deploymentName ?? "—"}</span>
        </Field>
        <Field label={t("access.transaction")}>
          <span className={mono}>{service.txHash ? `${service.txHash} (#${service.blockNumber})` : "—"}</span>
        </Field>
      </dl>
      {service.accessPath ? (
        <div>
          <p className="label">{t("access.url")}</p>
          <p className={mono} data-testid="access-url">{`${origin}${service.accessPath}`}</p>
          <p className="mt-1 text-xs text-slate-600">{t("access.urlHint")}</p>
        </div>
      ) : (
        <p className="text-sm text-slate-600">{t("access.notDeployed")}</p>
      )}
      {service.abi ? (
        <details>
          <summary className="cursor-pointer text-sm font-medium">{t("access.abi")}</summary>
          <pre className="mt-2 max-h-64 overflow-auto rounded bg-slate-50 p-2 text-xs" tabIndex={0}>
            {JSON.stringify(service.abi, null, 2)}
          </pre>
        </details>
      ) : null}
      {service.certificatePem ? (
        <details>
          <summary className="cursor-pointer text-sm font-medium">{t("access.certificate")}</summary>
          <pre
            className="mt-2 max-h-64 overflow-auto rounded bg-slate-50 p-2 text-xs"
            tabIndex={0}
            data-testid="certificate"
          >
            {service.certificatePem}
          </pre>
          {/* A document POST (not a fetch), so the browser saves the answered file. */}
          <Form method="post" action="/g/home/TestServices/identityKey" reloadDocument className="mt-2">
            <input type="hidden" name="testServiceId" value={service.testServiceId} />
            <button type="submit" className="btn-secondary text-sm">
              {t("access.downloadKey")}
            </button>
            <p className="mt-1 text-xs text-slate-600">{t("access.downloadKeyHint")}</p>
          </Form>
        </details>
      ) : null}
    </section>
  );
}
