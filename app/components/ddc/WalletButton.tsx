import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

type Ethereum = { request(args: { method: string; params?: unknown[] }): Promise<unknown> };
const ethereumOf = () =>
  typeof window === "undefined" ? undefined : (window as unknown as { ethereum?: Ethereum }).ethereum;

/**
 * With JavaScript and a browser wallet (EIP-1193 `window.ethereum`): a button that asks the wallet and writes
 * its answer into the form's field `field`, then submits the form. Nothing shows without a wallet or without
 * JavaScript (the form is filled by hand then). `mode` "address": eth_requestAccounts; "sign": personal_sign of
 * the form's `message` by `address`.
 */
export function WalletButton({
  formId,
  field,
  mode,
  address,
  label,
}: {
  formId: string;
  field: string;
  mode: "address" | "sign";
  address?: string;
  label: string;
}) {
  const { t } = useTranslation("ddc");
  const [available, setAvailable] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setAvailable(!!ethereumOf()), []);
  if (!available) return null;
  const run = async () => {
    setError(null);
    const form = document.getElementById(formId);
    const ethereum = ethereumOf();
    if (!(form instanceof HTMLFormElement) || !ethereum) return;
    try {
      let value: string;
      if (mode === "address") {
        const accounts = (await ethereum.request({ method: "eth_requestAccounts" })) as string[];
        value = accounts[0] ?? "";
      } else {
        const message = (form.elements.namedItem("message") as HTMLTextAreaElement | null)?.value ?? "";
        const hex = `0x${Array.from(new TextEncoder().encode(message), (b) => b.toString(16).padStart(2, "0")).join("")}`;
        value = String(await ethereum.request({ method: "personal_sign", params: [hex, address] }));
      }
      const input = form.elements.namedItem(field) as HTMLInputElement | null;
      if (!input || !value) return;
      input.value = value;
      form.requestSubmit();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div>
      <button type="button" className="btn-secondary" onClick={() => void run()} data-testid={`wallet-${mode}`}>
        {label}
      </button>
      {error ? (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {t("binding.walletError", { error })}
        </p>
      ) : null}
    </div>
  );
}
