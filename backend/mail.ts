import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInstance, type TFunction } from "i18next";
import nodemailer, { type Transporter } from "nodemailer";
import type { BackendEnv } from "./env.ts";

export type Language = "en" | "zh-CN";

/** A language stored as text (a ticket's, a subscriber's, a login's) as a mail language: Chinese, else English. */
export const mailLanguage = (value: string): Language => (value === "zh-CN" ? "zh-CN" : "en");
export type MailKind =
  | "activation"
  | "resetCode"
  | "desktopLink"
  | "eventSignup"
  | "supportTicketLink"
  | "supportReply"
  | "newsletterConfirm"
  | "newsletter"
  | "teamInvitation"
  | "moneyNotice"
  | "servicesNotice";

/**
 * What a mail may carry beside its text: an HTML part (already safe: rendered by the caller, e.g. Markdown through
 * the sanitiser), followed by the kind's translated `htmlFooter`; extra headers (List-Unsubscribe).
 */
export type MailExtras = { html?: string; headers?: Record<string, string> };

declare const permitted: unique symbol;
/**
 * The right to send one mail to `to`, given by the rate limits (`services.limits.mailPermit`): every mail
 * passes the per-recipient and per-address mail limits, because `send` takes nothing else (docs/decisions/021).
 */
export type MailPermit = { readonly to: string; readonly [permitted]: true };

/**
 * Mail (nodemailer). With SMTP_URL, a real SMTP server; without it, each mail is written to
 * DATA_DIR/outbox as a .eml file and a .json file beside it ({to, subject, text, html, date}).
 * Texts come from locales/<language>/mail.json.
 */
export class Mailer {
  private transporter: Transporter;
  private translators = new Map<Language, TFunction>();

  constructor(private env: BackendEnv) {
    this.transporter = env.smtpUrl
      ? nodemailer.createTransport(env.smtpUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  }

  private async translator(language: Language): Promise<TFunction> {
    const known = this.translators.get(language);
    if (known) return known;
    const load = (lng: string) =>
      JSON.parse(readFileSync(path.resolve(process.cwd(), "locales", lng, "mail.json"), "utf8"));
    const instance = createInstance();
    await instance.init({
      lng: language,
      fallbackLng: "en",
      ns: ["mail"],
      defaultNS: "mail",
      resources: { en: { mail: load("en") }, "zh-CN": { mail: load("zh-CN") } },
      interpolation: { escapeValue: false },
    });
    this.translators.set(language, instance.t);
    return instance.t;
  }

  async send(
    permit: MailPermit,
    kind: MailKind,
    language: Language,
    params: Record<string, string>,
    extras: MailExtras = {},
  ) {
    const { to } = permit;
    const t = await this.translator(language);
    const subject = t(`${kind}.subject`, params);
    const text = t(`${kind}.body`, params);
    const html =
      extras.html === undefined ? undefined : `${extras.html}\n<hr>\n<p>${t(`${kind}.htmlFooter`, params)}</p>`;
    const info = await this.transporter.sendMail({
      from: this.env.mailFrom,
      to,
      subject,
      text,
      ...(html ? { html } : {}),
      ...(extras.headers ? { headers: extras.headers } : {}),
    });
    if (!this.env.smtpUrl) {
      const dir = path.join(this.env.dataDir, "outbox");
      await mkdir(dir, { recursive: true });
      const base = `${Date.now()}-${randomBytes(4).toString("hex")}`;
      await writeFile(path.join(dir, `${base}.eml`), info.message as Buffer);
      // Written whole under another name, then renamed: a reader of the outbox never meets half a file (a test run
      // once read a .json being written and failed on its JSON).
      const json = path.join(dir, `${base}.json`);
      await writeFile(
        `${json}.part`,
        JSON.stringify({ to, subject, text, ...(html ? { html } : {}), date: new Date().toISOString() }, null, 2),
      );
      await rename(`${json}.part`, json);
    }
  }
}
