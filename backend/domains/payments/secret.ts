import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ConfigurationError, type BackendEnv } from "#backend/env.ts";

const resolved = new WeakMap<BackendEnv, string>();

/**
 * The secret shared by the merchant (this backend) and the sandbox payment provider that signs callbacks:
 * PAYMENT_WEBHOOK_SECRET, or one generated once into DATA_DIR/payment-webhook-secret like the session
 * secret. With DATABASE_URL several processes share the database and must share the secret: required.
 */
export function webhookSecret(env: BackendEnv): string {
  const known = resolved.get(env);
  if (known) return known;
  let secret = env.paymentWebhookSecret;
  if (!secret) {
    if (env.databaseUrl)
      throw new ConfigurationError(
        "PAYMENT_WEBHOOK_SECRET is required with DATABASE_URL while the sandbox is the payment provider (several processes must share it).",
      );
    const file = path.join(env.dataDir, "payment-webhook-secret");
    if (existsSync(file)) secret = readFileSync(file, "utf8").trim() || undefined;
    if (!secret) {
      mkdirSync(env.dataDir, { recursive: true });
      secret = randomBytes(32).toString("hex");
      writeFileSync(file, secret + "\n", { mode: 0o600 });
      chmodSync(file, 0o600);
    }
  }
  resolved.set(env, secret);
  return secret;
}
