/**
 * Codes of DDC certificates and account binding (SPEC §2 ddc-view, ddc-QRCode, account-binding; §3 QR-code
 * password; §9 bill types 91 and 92; docs/decisions/045), without Zod, so that browser code can use them.
 * contract/ddc.ts re-exports them.
 */

/** A DDC: 1 minting, 2 minted, 3 failed (the chain refused the mint: nothing billed). */
export const DdcStatus = { MINTING: 1, MINTED: 2, FAILED: 3 } as const;

/** A portal transfer: sending (fee paid, maybe on the chain), done, or failed with its fee refunded. */
export const DdcTransferStatus = { SENDING: 1, DONE: 2, FAILED: 3 } as const;

/** Where a DDC's file goes: the user's IPFS service, or the product's storage. */
export const DDC_STORAGES = ["product", "ipfs"] as const;
export type DdcStorage = (typeof DDC_STORAGES)[number];

/**
 * The service fees of §9 bill types 91 (mint) and 92 (transfer) are paid from the balance at the operators'
 * prices (the ddc domain's ddc_fees, docs/decisions/073); the gas is paid on chain by the account that signs
 * (docs/decisions/045).
 */
export const DdcFee = { MINT: "mint", TRANSFER: "transfer" } as const;

export const DDC_NAME_MAX = 100;
export const DDC_DESCRIPTION_MAX = 2_000;
export const DDC_METADATA_MAX = 20;
export const DDC_METADATA_KEY_MAX = 50;
export const DDC_METADATA_VALUE_MAX = 500;
export const DDC_PASSWORD_MIN = 4;
export const DDC_PASSWORD_MAX = 64;

/** The public pages (SPEC §2), with the DDC's id in `ddcId`. */
export const DDC_VIEW_PATH = "/g/main/ddc-view";
export const DDC_QRCODE_PATH = "/g/main/ddc-QRCode";
export const ACCOUNT_BINDING_PATH = "/g/main/account-binding";

/** How long an account-binding challenge may be signed (EIP-4361 expiration time). */
export const BINDING_CHALLENGE_MINUTES = 10;

/** "key=value" lines of the mint form as metadata entries (blank lines skipped; the first "=" splits). */
export function metadataOfText(text: string | undefined): { key: string; value: string }[] {
  return (text ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf("=");
      return at < 0 ? { key: line, value: "" } : { key: line.slice(0, at).trim(), value: line.slice(at + 1).trim() };
    });
}

/** A DDC's file: an image (png, jpg) or a document (pdf, txt), at most 5 MB (contract/uploads.ts kind "ddc"). */
export const DDC_FILE_TYPES = ["png", "jpg", "jpeg", "pdf", "txt"] as const;
export const DDC_FILE_MAX_BYTES = 5 * 1024 * 1024;
const FILE_NAME_MAX = 200;

/** What is wrong with a chosen DDC file by its name and size (an i18n key), or null. */
export function ddcFileProblem(file: { name: string; size: number }): string | null {
  if (!file.name || file.size === 0) return "ddc:validation.fileRequired";
  if (file.name.length > FILE_NAME_MAX) return "ddc:validation.fileName";
  const ext = file.name.includes(".") ? file.name.slice(file.name.lastIndexOf(".") + 1).toLowerCase() : "";
  if (!(DDC_FILE_TYPES as readonly string[]).includes(ext)) return "ddc:validation.fileType";
  if (file.size > DDC_FILE_MAX_BYTES) return "ddc:validation.fileTooLarge";
  return null;
}
