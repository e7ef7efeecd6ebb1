import path from "node:path";
import { z } from "zod";
import { readRateLimitConfig, type RateLimitConfig } from "./kit/rate-limit-rules";

/** The backend's environment, validated at start: a bad value stops the server (ARCHITECTURE house habit 6). */
const schema = z
  .object({
    NODE_ENV: z.string().default("development"),
    PORT: z.coerce.number().int().default(3000),
    DATA_DIR: z.string().default("./data"),
    DATABASE_URL: z.string().url().optional(),
    SMTP_URL: z.string().url().optional(),
    MAIL_FROM: z.string().default("BSN Portal <no-reply@localhost>"),
    PUBLIC_URL: z.string().url().optional(),
    TEST_CAPTCHA: z.string().min(1).optional(),
    SEED_DEMO: z.enum(["0", "1"]).optional(),
    TEST_FIXTURES: z.enum(["0", "1"]).optional(),
    JOBS_INTERVAL_MS: z.coerce.number().int().min(0).default(2000),
    PAYMENT_WEBHOOK_SECRET: z.string().min(16).optional(),
    /** "on" (default), "off" (tests only) or overrides "name=limit/window[/block],…" (docs/decisions/021). */
    RATE_LIMITS: z.string().optional(),
    /** Comma-separated client addresses that the per-address limits leave alone. */
    RATE_LIMIT_EXEMPT: z.string().optional(),
  })
  .superRefine((env, ctx) => {
    if (env.TEST_CAPTCHA && env.NODE_ENV === "production") {
      ctx.addIssue({ code: "custom", path: ["TEST_CAPTCHA"], message: "TEST_CAPTCHA must not be set when NODE_ENV=production" });
    }
    if (env.RATE_LIMITS?.trim() === "off" && env.NODE_ENV === "production") {
      ctx.addIssue({ code: "custom", path: ["RATE_LIMITS"], message: "RATE_LIMITS=off must not be set when NODE_ENV=production" });
    }
    if (env.TEST_FIXTURES === "1" && env.NODE_ENV === "production") {
      ctx.addIssue({ code: "custom", path: ["TEST_FIXTURES"], message: "TEST_FIXTURES must not be set when NODE_ENV=production" });
    }
  });

export type BackendEnv = {
  nodeEnv: string;
  dataDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  testCaptcha: string | undefined;
  /** Demo accounts are seeded into the embedded database, or into a server database only when asked. */
  seedDemo: boolean;
  /** Tests only: the /test/fixtures path may create records for the caller. */
  testFixtures: boolean;
  /** How often this process looks for due background jobs; 0 turns the loop off. */
  jobsIntervalMs: number;
  /**
   * The secret shared with the payment provider that signs its callbacks; when unset it is generated once
   * into DATA_DIR (backend/domains/payments/secret.ts), and required with DATABASE_URL (docs/decisions/007).
   */
  paymentWebhookSecret: string | undefined;
  /** The rate limits and locks (backend/kit/rate-limit-rules.ts). */
  rateLimits: RateLimitConfig;
};

export function readBackendEnv(source: Record<string, string | undefined> = process.env): BackendEnv {
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    throw new Error(`Invalid backend environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  const env = parsed.data;
  let rateLimits: RateLimitConfig;
  try {
    rateLimits = readRateLimitConfig(env.RATE_LIMITS, env.RATE_LIMIT_EXEMPT);
  } catch (error) {
    throw new Error(`Invalid backend environment: ${(error as Error).message}`);
  }
  return {
    nodeEnv: env.NODE_ENV,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    testCaptcha: env.TEST_CAPTCHA,
    seedDemo: env.SEED_DEMO ? env.SEED_DEMO === "1" : !env.DATABASE_URL,
    jobsIntervalMs: env.JOBS_INTERVAL_MS,
    testFixtures: env.TEST_FIXTURES === "1",
    paymentWebhookSecret: env.PAYMENT_WEBHOOK_SECRET,
    rateLimits,
  };
}
