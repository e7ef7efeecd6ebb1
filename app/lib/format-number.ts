import type { Language } from "./i18n";

/*
 * Number formats without date-fns: pages that show money or file sizes but no dates (the service wizard,
 * the upload progress) import these from here, so their JavaScript does not load the date library.
 * app/lib/format.ts re-exports them beside the date formats.
 */

/** USD from integer cents (ARCHITECTURE house habit 9). */
export function formatUsd(cents: number, language: Language): string {
  return new Intl.NumberFormat(language === "zh-CN" ? "zh-CN" : "en-US", { style: "currency", currency: "USD" }).format(cents / 100);
}

/**
 * An amount in the smallest unit of any currency, as a payment provider reports it (cents of USD, yen of
 * JPY): the currency's own decimals; a code Intl does not know is shown as it came.
 */
export function formatMinorUnits(amount: number, currency: string, language: Language): string {
  try {
    const format = new Intl.NumberFormat(language === "zh-CN" ? "zh-CN" : "en-US", { style: "currency", currency });
    return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    return `${amount} ${currency}`;
  }
}

/** A file size for people: B, KB or MB with one decimal. */
export function formatSize(bytes: number) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
