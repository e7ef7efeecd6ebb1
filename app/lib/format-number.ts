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

const KIB = 1024;
const MIB = KIB * 1024;
const GIB = MIB * 1024;

/**
 * From 1024 MB up a size is GB with two decimals, the same in both languages and on every page (issue 30
 * item 8: never "1024 MB" in one place and "1.00 GB" in another); `null` below that.
 */
function gigabytes(bytes: number): string | null {
  return bytes >= GIB ? `${(bytes / GIB).toFixed(2)} GB` : null;
}

/** A file's size (uploads, attachments): B, KB or MB with one decimal; GB with two from 1024 MB up. */
export function formatSize(bytes: number): string {
  if (bytes < KIB) return `${bytes} B`;
  if (bytes < MIB) return `${(bytes / KIB).toFixed(1)} KB`;
  return gigabytes(bytes) ?? `${(bytes / MIB).toFixed(1)} MB`;
}

/** Capacities and traffic: B, KB or MB with up to two decimals (fewer as they grow); GB with two from 1024 MB up. */
export function formatBytes(bytes: number): string {
  if (bytes < KIB) return `${bytes} B`;
  const gb = gigabytes(bytes);
  if (gb) return gb;
  const [value, unit] = bytes < MIB ? [bytes / KIB, "KB"] : [bytes / MIB, "MB"];
  return `${value.toFixed(value >= 100 ? 0 : value >= 10 ? 1 : 2)} ${unit}`;
}

/** Wei (a decimal string) as ether with up to 6 decimals, without floating point. */
export function formatEther(wei: string | null | undefined): string {
  if (wei === null || wei === undefined || !/^[0-9]+$/.test(wei)) return "—";
  const value = BigInt(wei);
  const whole = value / 10n ** 18n;
  const fraction = (value % 10n ** 18n).toString().padStart(18, "0").slice(0, 6).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole.toString();
}
