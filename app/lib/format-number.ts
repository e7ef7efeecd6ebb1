import type { Language } from "./i18n.ts";

/*
 * Number formats without date-fns: pages that show money or file sizes but no dates (the service wizard,
 * the upload progress) import these from here, so their JavaScript does not load the date library.
 * app/lib/format.ts re-exports them beside the date formats.
 */

/** The Intl locale of a language's numbers. */
const localeOf = (language: Language) => (language === "zh-CN" ? "zh-CN" : "en-US");

/**
 * Number formats are built once per locale and currency and kept: building an Intl.NumberFormat costs
 * far more than formatting with it (issue 11), and a page formats many amounts. The set is small and
 * fixed (two locales, the currencies payment providers report), so the map does not grow without bound
 * in practice; an unknown currency is not kept (it throws when built).
 */
const numberFormats = new Map<string, Intl.NumberFormat>();

export function numberFormat(
  language: Language,
  options: Intl.NumberFormatOptions & { currency?: string } = {},
): Intl.NumberFormat {
  const key = `${localeOf(language)}|${options.style ?? ""}|${options.currency ?? ""}`;
  let found = numberFormats.get(key);
  if (!found) {
    found = new Intl.NumberFormat(localeOf(language), options);
    numberFormats.set(key, found);
  }
  return found;
}

/** USD from integer cents (ARCHITECTURE house habit 9). */
export function formatUsd(cents: number, language: Language): string {
  return numberFormat(language, { style: "currency", currency: "USD" }).format(cents / 100);
}

/** A plain number with the language's grouping (3,000 / 3,000). */
export function formatNumber(value: number, language: Language): string {
  return numberFormat(language).format(value);
}

/**
 * An amount in the smallest unit of any currency, as a payment provider reports it (cents of USD, yen of
 * JPY): the currency's own decimals; a code Intl does not know is shown as it came.
 */
export function formatMinorUnits(amount: number, currency: string, language: Language): string {
  try {
    const format = numberFormat(language, { style: "currency", currency });
    return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    return `${amount} ${currency}`;
  }
}

/**
 * A size for people, the same in both languages (issue 30 item 8): B; KB and MB with one decimal; from
 * 1024 MB up, GB with two decimals ("1.00 GB", never "1024.0 MB"). Binary units, as capacities, uploads
 * and traffic bills count them.
 */
export function formatBytes(bytes: number): string {
  if (bytes < KIB) return `${bytes} B`;
  if (bytes < MIB) return `${(bytes / KIB).toFixed(1)} KB`;
  if (bytes < GIB) return `${(bytes / MIB).toFixed(1)} MB`;
  return `${(bytes / GIB).toFixed(2)} GB`;
}
const KIB = 1024;
const MIB = KIB * 1024;
const GIB = MIB * 1024;

/** A file's size (uploads, attachments): the same rule as every other size. */
export const formatSize = formatBytes;

/** Wei (a decimal string) as ether with up to 6 decimals, without floating point. */
export function formatEther(wei: string | null | undefined): string {
  if (wei === null || wei === undefined || !/^[0-9]+$/.test(wei)) return "—";
  const value = BigInt(wei);
  const whole = value / 10n ** 18n;
  const fraction = (value % 10n ** 18n).toString().padStart(18, "0").slice(0, 6).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole.toString();
}
