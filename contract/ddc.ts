import type { DownloadSpec } from "./download-spec.ts";
import * as z from "zod";
import type { PathSpec } from "./path-spec.ts";
import { pageOf, pagingFields } from "./platform.ts";
import { idempotencyKey } from "./rules.ts";
import { uploadIdSchema } from "./uploads.ts";
import {
  DDC_DESCRIPTION_MAX,
  DDC_METADATA_KEY_MAX,
  DDC_METADATA_MAX,
  DDC_METADATA_VALUE_MAX,
  DDC_NAME_MAX,
  DDC_PASSWORD_MAX,
  DDC_PASSWORD_MIN,
  DDC_STORAGES,
  metadataOfText,
} from "./ddc-codes.ts";
export * from "./ddc-codes.ts";

/*
 * DDC certificates (ERC-721 tokens on an open-alliance project) and account binding (EIP-4361) (SPEC §2, §3,
 * §9; docs/decisions/045). Validation messages are keys of the `ddc` namespace or the shared ones.
 */

const id = () => z.number().int().positive();
const address = () =>
  z
    .string()
    .trim()
    .regex(/^0x[0-9a-fA-F]{40}$/, "ddc:validation.address");

const ddcName = () =>
  z
    .string({ error: "validation.required" })
    .trim()
    .min(1, "validation.required")
    .max(DDC_NAME_MAX, "validation.tooLong");
const description = () => z.string().trim().max(DDC_DESCRIPTION_MAX, "validation.tooLong").default("");

const metadataEntry = z.object({
  key: z.string().trim().min(1, "ddc:validation.metadataKey").max(DDC_METADATA_KEY_MAX, "validation.tooLong"),
  value: z.string().trim().max(DDC_METADATA_VALUE_MAX, "validation.tooLong"),
});
const metadataList = z
  .array(metadataEntry)
  .max(DDC_METADATA_MAX, "ddc:validation.metadataCount")
  .refine((list) => new Set(list.map((e) => e.key)).size === list.length, "ddc:validation.metadataDuplicate")
  .default([]);

type StorageFields = { storage: string; ipfsServiceId?: number | null };
function checkStorage(v: StorageFields, ctx: z.RefinementCtx) {
  if (v.storage === "ipfs" && !v.ipfsServiceId)
    ctx.addIssue({ code: "custom", path: ["ipfsServiceId"], message: "ddc:validation.ipfsService" });
}

const mintFields = {
  projectId: id(),
  accountId: id(),
  name: ddcName(),
  description: description(),
  storage: z.enum(DDC_STORAGES, { error: "ddc:validation.storage" }),
  ipfsServiceId: z.number().int().positive().nullable().optional(),
  idempotencyKey: idempotencyKey(),
};

export const ddcMintSchema = z
  .object({ ...mintFields, metadata: metadataList, file: z.object({ uploadId: uploadIdSchema }) })
  .superRefine(checkStorage);

/** The portal's mint form: one chain account (its project follows), the metadata as "key=value" lines; the file is the upload field `file`. */
export const ddcMintFormSchema = z
  .object({
    name: mintFields.name,
    description: mintFields.description,
    storage: mintFields.storage,
    idempotencyKey: mintFields.idempotencyKey,
    accountId: z.coerce.number({ error: "validation.required" }).int().positive("validation.required"),
    ipfsServiceId: z.coerce.number().int().positive().optional(),
    metadataText: z
      .string()
      .max(DDC_METADATA_MAX * (DDC_METADATA_KEY_MAX + DDC_METADATA_VALUE_MAX + 2), "validation.tooLong")
      .optional()
      .superRefine((text, ctx) => {
        const parsed = metadataList.safeParse(metadataOfText(text));
        if (!parsed.success)
          ctx.addIssue({ code: "custom", message: parsed.error.issues[0]?.message ?? "validation.invalid" });
      }),
  })
  .superRefine(checkStorage);

export const ddcTransferSchema = z.object({ ddcId: id(), to: address() });
export const ddcTransferFormSchema = z.object({ ddcId: z.coerce.number().int().positive(), to: address() });

const password = () =>
  z
    .string()
    .min(DDC_PASSWORD_MIN, "ddc:validation.passwordLength")
    .max(DDC_PASSWORD_MAX, "ddc:validation.passwordLength");
/** Sets (or, with `clear`, removes) the QR-code password. */
export const ddcPasswordSchema = z
  .object({ ddcId: id(), password: password().optional(), clear: z.boolean().default(false) })
  .superRefine((v, ctx) => {
    if (!v.clear && !v.password)
      ctx.addIssue({ code: "custom", path: ["password"], message: "ddc:validation.passwordLength" });
  });
export const ddcPasswordFormSchema = z.object({ ddcId: z.coerce.number().int().positive(), password: password() });

/** The public page's password form (ddc-view). */
export const ddcUnlockFormSchema = z.object({
  ddcId: z.coerce.number().int().positive(),
  password: z
    .string({ error: "validation.required" })
    .min(1, "validation.required")
    .max(DDC_PASSWORD_MAX, "validation.tooLong"),
});

export const ddcSchema = z.object({
  ddcId: z.number().int(),
  tokenId: z.string(),
  name: z.string(),
  description: z.string(),
  metadata: z.array(z.object({ key: z.string(), value: z.string() })),
  projectId: z.number().int(),
  projectName: z.string(),
  accountId: z.number().int(),
  accountName: z.string(),
  accountAddress: z.string(),
  fileName: z.string(),
  fileMime: z.string(),
  fileSize: z.number().int(),
  storage: z.enum(DDC_STORAGES),
  fileCid: z.string().nullable(),
  tokenUri: z.string().nullable(),
  contractAddress: z.string().nullable(),
  chainId: z.number().int().nullable(),
  status: z.number().int(),
  failReason: z.string().nullable(),
  mintTxHash: z.string().nullable(),
  mintBlock: z.number().int().nullable(),
  billId: z.number().int().nullable(),
  passwordSet: z.boolean(),
  createdAt: z.string(),
  mintedAt: z.string().nullable(),
});
export type Ddc = z.infer<typeof ddcSchema>;

export const ddcEventSchema = z.object({
  from: z.string(),
  to: z.string(),
  txHash: z.string(),
  blockNumber: z.number().int(),
  at: z.string().nullable(),
});

export const ddcDetailSchema = ddcSchema.extend({
  /** ownerOf(tokenId) read on the chain now. */
  owner: z.string().nullable(),
  /** Whether one of the user's custody accounts holds it (it can be transferred from here). */
  heldBy: z.object({ accountId: z.number().int(), accountName: z.string() }).nullable(),
  history: z.array(ddcEventSchema),
});

/** The public view (ddc-view): locked until the QR-code password is given, then its details. */
export const ddcPublicSchema = z.discriminatedUnion("locked", [
  z.object({ locked: z.literal(true), ddcId: z.number().int(), name: z.string() }),
  z.object({
    locked: z.literal(false),
    /** After a correct password: a sealed pass the portal keeps for this browser and sends back instead. */
    pass: z.string().nullable(),
    ddcId: z.number().int(),
    tokenId: z.string(),
    name: z.string(),
    description: z.string(),
    metadata: z.array(z.object({ key: z.string(), value: z.string() })),
    fileName: z.string(),
    fileMime: z.string(),
    fileSize: z.number().int(),
    storage: z.enum(DDC_STORAGES),
    fileCid: z.string().nullable(),
    tokenUri: z.string().nullable(),
    contractAddress: z.string().nullable(),
    chainId: z.number().int().nullable(),
    owner: z.string().nullable(),
    mintedAt: z.string().nullable(),
    history: z.array(ddcEventSchema),
  }),
]);

const viewPayload = z.object({
  ddcId: id(),
  password: z.string().max(DDC_PASSWORD_MAX, "validation.tooLong").optional(),
  pass: z.string().max(500).optional(),
});

export const ddcOptionsSchema = z.object({
  projects: z.array(
    z.object({
      projectId: z.number().int(),
      name: z.string(),
      accounts: z.array(
        z.object({ accountId: z.number().int(), name: z.string(), address: z.string(), gasWei: z.string() }),
      ),
    }),
  ),
  ipfsServices: z.array(z.object({ ipfsServiceId: z.number().int(), name: z.string(), freeBytes: z.number().int() })),
  mintFeeCents: z.number().int(),
  transferFeeCents: z.number().int(),
});

export const bindingSchema = z.object({
  bindingId: z.number().int(),
  address: z.string(),
  chainId: z.number().int(),
  createdAt: z.string(),
});
export const challengeSchema = z.object({
  nonce: z.string(),
  address: z.string(),
  message: z.string(),
  expiresAt: z.string(),
});
export const bindingChallengeFormSchema = z.object({ address: address() });
export const bindingBindSchema = z.object({
  message: z.string({ error: "validation.required" }).min(1, "validation.required").max(2_000, "validation.tooLong"),
  signature: z
    .string({ error: "validation.required" })
    .trim()
    .regex(/^0x[0-9a-fA-F]{130}$/, "ddc:validation.signature"),
});

export const ddcPaths = {
  /** What the mint form offers: the user's projects that may mint with their custody accounts, running IPFS services, the fees. */
  "/sys/ddc/options": { auth: "user", permission: "read", payload: z.object({}), data: ddcOptionsSchema },
  /** Mints a DDC (bill type 91): the file stored, the collection deployed on the project's first mint, the token minted. */
  "/sys/ddc/mint": { auth: "user", permission: "services", payload: ddcMintSchema, data: ddcSchema },
  "/sys/ddc/list": {
    auth: "user",
    permission: "read",
    payload: z.object({ ...pagingFields }),
    data: pageOf(ddcSchema),
  },
  "/sys/ddc/detail": { auth: "user", permission: "read", payload: z.object({ ddcId: id() }), data: ddcDetailSchema },
  /** Transfers a DDC held by one of the user's custody accounts to another address (bill type 92). */
  "/sys/ddc/transfer": { auth: "user", permission: "services", payload: ddcTransferSchema, data: ddcDetailSchema },
  /** Sets or clears the QR-code password (SPEC §3). */
  "/sys/ddc/password": {
    auth: "user",
    permission: "services",
    payload: ddcPasswordSchema,
    data: z.object({ ddcId: z.number().int(), passwordSet: z.boolean() }),
  },
  /** ddc-view (public): locked, or the details (owner read on chain, history from the chain's Transfer events). */
  "/anon/ddc/view": { auth: "anon", payload: viewPayload, data: ddcPublicSchema },
  /** Account binding: a one-time EIP-4361 challenge for an address. */
  "/sys/binding/challenge": {
    auth: "user",
    permission: "services",
    payload: bindingChallengeFormSchema,
    data: challengeSchema,
  },
  /** Account binding: the signed challenge verified, the address bound. */
  "/sys/binding/bind": { auth: "user", permission: "services", payload: bindingBindSchema, data: bindingSchema },
  "/sys/binding/list": {
    auth: "user",
    permission: "read",
    payload: z.object({}),
    data: z.object({ rows: z.array(bindingSchema) }),
  },
  "/sys/binding/unbind": {
    auth: "user",
    permission: "services",
    payload: z.object({ bindingId: id() }),
    data: z.object({ bindingId: z.number().int() }),
  },
} satisfies Record<string, PathSpec>;

/** The DDC's file as bytes (public, behind the QR-code password like the view; docs/decisions/053). */
export const ddcDownloads = {
  "ddc-file": { auth: "anon", payload: viewPayload.omit({ password: true }) },
} satisfies Record<string, DownloadSpec>;
