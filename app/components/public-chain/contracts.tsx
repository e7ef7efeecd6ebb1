import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { CONTRACT_BUSY_STATUSES, ContractStatus } from "#contract/contracts-codes.ts";
import { Badge, type Tone } from "#app/components/Badge.tsx";
import { ErrorList } from "#app/components/form-parts.tsx";

/** Shared bits of the contract pages (SPEC §4 Contract deployment; docs/decisions/033). */

const TONES: Record<number, Tone> = {
  [ContractStatus.PENDING]: "wait",
  [ContractStatus.DEPLOYING]: "info",
  [ContractStatus.SUCCESS]: "ok",
  [ContractStatus.FAILED]: "bad",
};

/** SPEC §4 contract deployment status as a pill. */
export function ContractStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("contracts");
  return (
    <Badge tone={TONES[status] ?? "off"} testId="contract-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

export const isUnderWay = (status: number) => CONTRACT_BUSY_STATUSES.includes(status);

/** With JavaScript, the page is read again every 1.5 s while a deployment is under way; without it, the page's refresh link. */
export function useRefreshWhile(underWay: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!underWay) return;
    const timer = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), 1500);
    return () => clearInterval(timer);
  }, [underWay, revalidator]);
}

/** An ABI entry as the pages read it (the backend sends the ABI as JSON objects). */
export type AbiParam = { name?: string; type: string };
export type AbiEntry = {
  type: string;
  name?: string;
  inputs?: AbiParam[];
  outputs?: AbiParam[];
  stateMutability?: string;
  anonymous?: boolean;
};

export const asEntries = (abi: Record<string, unknown>[] | null): AbiEntry[] =>
  (abi ?? []).filter((e): e is AbiEntry => typeof e.type === "string");

/** `name(type,…)`, the signature that tells overloads apart (the backend's `signatureOf`). */
export const signatureOf = (e: AbiEntry) => `${e.name ?? ""}(${(e.inputs ?? []).map((p) => p.type).join(",")})`;

export const isRead = (e: AbiEntry) =>
  e.type === "function" && (e.stateMutability === "view" || e.stateMutability === "pure");

/** A parameter list as text: "address owner, uint256 value". */
export const paramsText = (params: AbiParam[] | undefined) =>
  (params ?? []).map((p) => (p.name ? `${p.type} ${p.name}` : p.type)).join(", ");

/**
 * A function's arguments as form fields, one input per parameter named `args[i]` (the read and the write forms of
 * the contract page): the value typed last is kept and each field carries its own error.
 */
export function FunctionArguments({
  id,
  inputs,
  values,
  errorsOf,
}: {
  /** The form's id prefix: the fields are `${id}-arg-${i}`. */
  id: string;
  inputs: AbiParam[] | undefined;
  values: unknown[];
  errorsOf: (name: string) => string[] | undefined;
}) {
  return (
    <>
      {(inputs ?? []).map((p, i) => {
        const errors = errorsOf(`args[${i}]`);
        return (
          <div key={i}>
            <label htmlFor={`${id}-arg-${i}`} className="label">
              {p.name ? `${p.name} (${p.type})` : `#${i + 1} (${p.type})`}
            </label>
            <input
              id={`${id}-arg-${i}`}
              name={`args[${i}]`}
              defaultValue={typeof values[i] === "string" ? values[i] : ""}
              autoComplete="off"
              className="input font-mono"
              aria-invalid={errors ? true : undefined}
              aria-describedby={errors ? `${id}-arg-${i}-error` : undefined}
            />
            <ErrorList id={`${id}-arg-${i}-error`} errors={errors} />
          </div>
        );
      })}
    </>
  );
}
