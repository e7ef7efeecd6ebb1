import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** A mail as the embedded mail transport writes it beside its .eml (backend/mail.ts). */
export type Mail = { to: string; subject: string; text: string; html?: string };

/** The mails to `address` in DATA_DIR/outbox of `dataDir`, oldest first (the file names sort by time). */
export function mailsIn(dataDir: string, address: string): Mail[] {
  const dir = path.join(dataDir, "outbox");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as Mail)
    .filter((m) => m.to.toLowerCase() === address.toLowerCase());
}
