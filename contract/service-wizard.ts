import type { DownloadSpec } from "./download-spec.ts";
import * as z from "zod";
import { anyPayload, type PathSpec } from "./path-spec.ts";
import { email, mobile, optionalText, required } from "./rules.ts";
import { INDUSTRIES, FRAMEWORKS, PLATFORM_TYPES, LANGUAGES, CROSS_PROTOCOLS } from "./service-codes.ts";
import { bookedNodeSchema, functionFields, namedNodeSchema, packageSchema, roleFields } from "./service-parts.ts";
import { UPLOAD_KINDS, uploadRefSchema } from "./uploads.ts";
export * from "./service-codes.ts";

/* ------------------------------------------------------------------------------------------------
 * The service publish wizard (SPEC §2 PublishedServices/NewServices, §3 Service, Chaincode package,
 * Service function, Role, City node; §5 rules). One Zod schema per step, used by the portal action, by
 * Conform in the browser and by the backend, which parses the same value again (docs/decisions/011).
 * Messages are i18n keys of the `wizard` namespace ("wizard:validation...."), or §8 keys.
 * ---------------------------------------------------------------------------------------------- */

/* ----------------------------------------- step graph ----------------------------------------- */

/** SPEC §2 NewServices query appState. */
export const APP_STATES = ["add", "mod", "update", "mod2"] as const;
export type AppState = (typeof APP_STATES)[number];
export const isAppState = (v: unknown): v is AppState =>
  typeof v === "string" && (APP_STATES as readonly string[]).includes(v);

import { WIZARD_STEPS, type WizardStep } from "./service-codes.ts";
export { WIZARD_STEPS, type WizardStep };
export const isWizardStep = (v: unknown): v is WizardStep =>
  typeof v === "string" && (WIZARD_STEPS as readonly string[]).includes(v);

/**
 * The step graph as data: which steps each appState walks through. `mod` (basic-info edit of a running
 * service) is the basic step alone, saved without review; the others walk every step and end in a submission.
 */
export const STEP_GRAPH: Record<AppState, readonly WizardStep[]> = {
  add: WIZARD_STEPS,
  update: WIZARD_STEPS,
  mod2: WIZARD_STEPS,
  mod: ["basic"],
};

export function stepsFor(appState: AppState): readonly WizardStep[] {
  return STEP_GRAPH[appState];
}

export function nextStep(appState: AppState, step: WizardStep): WizardStep | null {
  const steps = STEP_GRAPH[appState];
  const i = steps.indexOf(step);
  return i >= 0 && i + 1 < steps.length ? steps[i + 1] : null;
}

export function previousStep(appState: AppState, step: WizardStep): WizardStep | null {
  const steps = STEP_GRAPH[appState];
  const i = steps.indexOf(step);
  return i > 0 ? steps[i - 1] : null;
}

/** The furthest of two steps (the draft keeps the furthest step it reached). */
export function furthestOf(a: WizardStep, b: WizardStep): WizardStep {
  return WIZARD_STEPS.indexOf(a) >= WIZARD_STEPS.indexOf(b) ? a : b;
}

/**
 * Steps the publisher may open: those of the appState up to the furthest reached. Without a draft
 * (nothing saved yet) only the first step.
 */
export function allowedSteps(appState: AppState, furthest: WizardStep | null): WizardStep[] {
  const steps = STEP_GRAPH[appState];
  if (!furthest) return [steps[0]];
  const limit = WIZARD_STEPS.indexOf(furthest);
  return steps.filter((s) => WIZARD_STEPS.indexOf(s) <= limit);
}

export function isStepAllowed(appState: AppState, furthest: WizardStep | null, step: WizardStep): boolean {
  return allowedSteps(appState, furthest).includes(step);
}

/* -------------------------------------------- limits ------------------------------------------- */

/** §5/§9 chaincode zip at most 60 MB. */
export const ZIP_MAX_BYTES = UPLOAD_KINDS.chaincode.maxBytes;
/** §5/§9 attachments at most 20 MB. */
export const ATTACHMENT_MAX_BYTES = UPLOAD_KINDS.attachment.maxBytes;
/** §5/§9 images 5 MB; "covers up to 10 MB in some forms": the cover is an image, so 5 MB (ADR 011). */
export const COVER_MAX_BYTES = UPLOAD_KINDS.cover.maxBytes;
/** §9 file names at most 50 characters. */
export const FILE_NAME_MAX = 50;
export const ATTACHMENT_TYPES = ["doc", "docx", "wps", "pdf", "txt", "zip", "rar", "tar", "jar"] as const;
export const COVER_TYPES = ["png", "jpg", "jpeg"] as const;
/** §5 bookkeeping nodes: at most 3 per chosen city node (ADR 011). */
export const MAX_PEERS_PER_NODE = 3;

export const PAYMENT_CYCLES = ["1", "2"] as const;
export const CERTIFICATE_MODES = ["1", "2", "3"] as const;
export const FUNC_TYPES = ["1", "2"] as const;

const extension = (name: string) => (name.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : "");

/** §5 chaincode file: required, zip only, at most 60 MB, name without spaces (max 50). */
export function zipProblem(file: { name: string; size: number }): string | null {
  if (!file.name || file.size === 0) return "wizard:validation.file.required";
  if (/\s/.test(file.name)) return "wizard:validation.file.spaces";
  if (file.name.length > FILE_NAME_MAX) return "wizard:validation.file.nameTooLong";
  if (extension(file.name) !== "zip") return "wizard:validation.file.zipOnly";
  if (file.size > ZIP_MAX_BYTES) return "wizard:validation.file.zipTooLarge";
  return null;
}

/** §5 attachment: max 20 MB, file name max 50, types doc docx wps pdf txt zip rar tar jar. */
export function attachmentProblem(file: { name: string; size: number }): string | null {
  if (!file.name || file.size === 0) return "wizard:validation.file.required";
  if (file.name.length > FILE_NAME_MAX) return "wizard:validation.file.nameTooLong";
  if (!(ATTACHMENT_TYPES as readonly string[]).includes(extension(file.name)))
    return "wizard:validation.file.attachmentType";
  if (file.size > ATTACHMENT_MAX_BYTES) return "wizard:validation.file.attachmentTooLarge";
  return null;
}

/** §2/§3 cover: png/jpg/jpeg, at most 5 MB. */
export function coverProblem(file: { name: string; size: number }): string | null {
  if (!file.name || file.size === 0) return "wizard:validation.file.required";
  if (file.name.length > FILE_NAME_MAX) return "wizard:validation.file.nameTooLong";
  if (!(COVER_TYPES as readonly string[]).includes(extension(file.name))) return "wizard:validation.file.coverType";
  if (file.size > COVER_MAX_BYTES) return "wizard:validation.file.coverTooLarge";
  return null;
}

/** A file of a wizard call: uploaded beforehand (contract/uploads.ts), named by its upload id. */
export const uploadSchema = uploadRefSchema;
export type Upload = z.infer<typeof uploadSchema>;

/* -------------------------------------------- fields ------------------------------------------- */

const text = (max: number) => required().max(max, "validation.tooLong");
const optionalMax = (max: number) =>
  optionalText().refine((v) => v === undefined || v.length <= max, "validation.tooLong");
const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: "validation.required" });
const checkbox = () => z.literal("on").optional();
/** §5 "Version required, format like 1.0.1". */
export const VERSION_RE = /^(0|[1-9][0-9]{0,3})\.(0|[1-9][0-9]{0,3})\.(0|[1-9][0-9]{0,3})$/;
const version = () => required().regex(VERSION_RE, "wizard:validation.version");
const optionalUrl = () =>
  optionalText().refine(
    (v) => v === undefined || (v.length <= 200 && /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(v)),
    "validation.url.format",
  );
/** A positive whole number typed in a form (kept as a string, like money). */
const wholeNumber = (max: number) =>
  z
    .string({ error: "validation.required" })
    .trim()
    .min(1, "validation.required")
    .regex(/^[1-9][0-9]{0,8}$/, "wizard:validation.wholeNumber")
    .refine((v) => Number(v) <= max, "wizard:validation.wholeNumber");
const idField = () =>
  z
    .string({ error: "validation.required" })
    .trim()
    .regex(/^[1-9][0-9]{0,9}$/, "validation.required");

/** The appState and service a wizard call is about (appId absent only for the first save of `add`). */
export const draftRefSchema = z.object({
  appState: z.enum(APP_STATES),
  appId: z.number().int().positive().optional(),
});

/** SPEC §3 Service access methods (the service's access address: at least one is required). */
export const ACCESS_METHODS = [
  "webUrl",
  "android",
  "ios",
  "officialAccount",
  "miniProgram",
  "apiInstructions",
] as const;

/* Step 1 — basic information (§2, §3 Service, §5 Service "Basic info: introduction, address, contact required"). */
export const basicInfoSchema = z
  .object({
    name: text(50),
    industry: choice(INDUSTRIES),
    description: text(200),
    introduction: text(2000),
    version: version(),
    framework: choice(FRAMEWORKS),
    platformType: choice(PLATFORM_TYPES),
    contactName: text(50),
    contactMobile: mobile(),
    contactEmail: email(),
    webUrl: optionalUrl(),
    android: optionalMax(200),
    ios: optionalMax(200),
    officialAccount: optionalMax(100),
    miniProgram: optionalMax(100),
    apiInstructions: optionalMax(2000),
    crossChain: checkbox(),
    crossProtocol: z.enum(CROSS_PROTOCOLS).optional(),
    crossAppCode: optionalMax(64),
    isPublic: checkbox(),
    paymentCycle: choice(PAYMENT_CYCLES),
    /** §1 one free service per account: the publisher ticks this for the service that uses it. */
    freeService: checkbox(),
  })
  .superRefine((v, ctx) => {
    // "address" of §5 Basic info = the access address: at least one access method.
    if (ACCESS_METHODS.every((key) => !v[key])) {
      ctx.addIssue({ code: "custom", path: ["webUrl"], message: "wizard:validation.accessRequired" });
    }
    if (v.crossChain === "on") {
      if (!v.crossProtocol)
        ctx.addIssue({ code: "custom", path: ["crossProtocol"], message: "wizard:validation.protocolRequired" });
      else if (v.crossProtocol === "2" && !v.crossAppCode)
        ctx.addIssue({ code: "custom", path: ["crossAppCode"], message: "wizard:validation.appCodeRequired" });
    }
  });
export type BasicInfo = z.infer<typeof basicInfoSchema>;

/** An attachment's name (§5: required, unique, max 50); the file travels beside it. */
export const attachmentFormSchema = z.object({ attachmentName: text(50) });

/* Step 2 — chaincode packages (§3, §5 Chaincode package). */
export const PACKAGE_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{3,15}$/;
export const packageFormSchema = z.object({
  name: required().regex(PACKAGE_NAME_RE, "wizard:validation.packageName"),
  version: version(),
  language: choice(LANGUAGES),
  initParams: optionalText().refine(
    (v) => v === undefined || (v.length <= 500 && v.split(",").every((p) => p.trim().length > 0)),
    "wizard:validation.initParams",
  ),
  mainPath: text(200),
});

/* Step 3 — functions (§3 Service function, §5 Function). */
export const FUNC_RE = /^[A-Za-z0-9_]{1,64}$/;
export const functionFormSchema = z.object({
  name: text(50),
  packageId: idField(),
  funcType: choice(FUNC_TYPES),
  func: required().regex(FUNC_RE, "wizard:validation.func"),
  /** "top" or the id of the superior function. */
  parentId: z.union([z.literal("top"), idField()], { error: "validation.required" }),
  crossChainAllowed: checkbox(),
  inputFormat: text(500),
  outputFormat: text(500),
});

/* Step 4 — roles (§3 Role, §5 Role). */
export const roleFormSchema = z.object({
  name: text(50),
  description: text(200),
  functionIds: z
    .array(idField(), { error: "wizard:validation.functionsRequired" })
    .min(1, "wizard:validation.functionsRequired"),
});

/* Step 5 — city nodes (§3 City node; §5 bookkeeping nodes, single-node risk). Every catalogue node is a row. */
/** The rows of a nodes form (the wizard's step 5 and ConfigurationNew): one per catalogue node. */
export const nodeRowsSchema = z
  .array(
    z.object({
      cityNodeId: idField(),
      selected: checkbox(),
      tps: z.string().trim().optional(),
      capacityGb: z.string().trim().optional(),
      peers: z.string().trim().optional(),
    }),
  )
  .max(100)
  .default([]);

/** At least one node chosen, and each chosen row's TPS, capacity and bookkeeping nodes whole numbers within limits. */
export function checkNodeRows(nodes: z.output<typeof nodeRowsSchema>, ctx: z.RefinementCtx) {
  const chosen = nodes.filter((n) => n.selected === "on");
  if (chosen.length === 0)
    ctx.addIssue({ code: "custom", path: ["nodes"], message: "wizard:validation.nodesRequired" });
  nodes.forEach((n, i) => {
    if (n.selected !== "on") return;
    for (const [key, max] of [
      ["tps", 100000],
      ["capacityGb", 100000],
      ["peers", MAX_PEERS_PER_NODE],
    ] as const) {
      const result = wholeNumber(max).safeParse(n[key] ?? "");
      if (!result.success) {
        const message =
          key === "peers" && /^[0-9]+$/.test(n[key] ?? "")
            ? "wizard:validation.peersMax"
            : result.error.issues[0].message;
        ctx.addIssue({ code: "custom", path: ["nodes", i, key], message });
      }
    }
  });
}

export const nodesFormSchema = z.object({ nodes: nodeRowsSchema }).superRefine((v, ctx) => checkNodeRows(v.nodes, ctx));
export type NodesForm = z.infer<typeof nodesFormSchema>;

/** The chosen nodes of a valid nodes form. */
export function chosenNodes(v: NodesForm) {
  return v.nodes
    .filter((n) => n.selected === "on")
    .map((n) => ({
      cityNodeId: Number(n.cityNodeId),
      tps: Number(n.tps),
      capacityGb: Number(n.capacityGb),
      peers: Number(n.peers),
    }));
}

/* Step 6 — certificate mode (§2: participant certificate, key trust, upload public key). */
export const certificateFormSchema = z.object({ certificateMode: choice(CERTIFICATE_MODES) });

/* Step 7 — cost breakdown with the publishing agreement (§5 Service). */
export const submitFormSchema = z.object({ agreement: z.literal("on", { error: "wizard:validation.agreement" }) });

/* ------------------------------------------- payloads ------------------------------------------ */

const withRef = <T extends z.ZodRawShape>(shape: T) => draftRefSchema.extend(shape);
const targetId = z.number().int().positive();

export const saveBasicPayload = withRef({
  basic: basicInfoSchema,
  cover: uploadSchema.optional(),
  /** A chaincode market entry the new service starts with (its zip and functions are copied on the first save of `add`). */
  marketPackageId: z.number().int().positive().optional(),
});
export const addAttachmentPayload = withRef({ attachment: attachmentFormSchema, file: uploadSchema });
export const addPackagePayload = withRef({ pkg: packageFormSchema, file: uploadSchema });
export const addFunctionPayload = withRef({ fn: functionFormSchema });
export const addRolePayload = withRef({ role: roleFormSchema });
export const saveNodesPayload = withRef({ form: nodesFormSchema });
export const saveCertificatePayload = withRef({ form: certificateFormSchema });
export const advancePayload = withRef({ from: z.enum(WIZARD_STEPS) });
export const deletePayload = withRef({ kind: z.enum(["attachment", "package", "function", "role"]), id: targetId });
export const submitPayload = withRef({ form: submitFormSchema });

/* --------------------------------------------- data -------------------------------------------- */

export const costLineSchema = namedNodeSchema.extend({
  /** TPS price of one cycle: tps × the node's TPS unit price per month or per year. */
  tpsCents: z.number().int(),
  /** Capacity price of one cycle: GB × the node's price per GB-month × months of the cycle. */
  capacityCents: z.number().int(),
  totalCents: z.number().int(),
});
export const costSchema = z.object({
  paymentCycle: z.union([z.literal(1), z.literal(2)]),
  lines: z.array(costLineSchema),
  totalCents: z.number().int(),
  free: z.boolean(),
});
export type Cost = z.infer<typeof costSchema>;

export const draftSchema = z.object({
  appId: z.number().int(),
  verId: z.number().int(),
  appCode: z.string(),
  verState: z.number().int(),
  /** Whether this appState may still change the draft (e.g. false once submitted). */
  editable: z.boolean(),
  wizardStep: z.enum(WIZARD_STEPS),
  basic: z.object({
    name: z.string(),
    industry: z.string(),
    description: z.string(),
    introduction: z.string(),
    version: z.string(),
    framework: z.string(),
    platformType: z.string(),
    contactName: z.string(),
    contactMobile: z.string(),
    contactEmail: z.string(),
    webUrl: z.string(),
    android: z.string(),
    ios: z.string(),
    officialAccount: z.string(),
    miniProgram: z.string(),
    apiInstructions: z.string(),
    crossChain: z.boolean(),
    crossProtocol: z.string(),
    crossAppCode: z.string(),
    isPublic: z.boolean(),
    paymentCycle: z.string(),
    freeService: z.boolean(),
  }),
  /** The cover's file (the page shows it from the portal's cover route, never inside the page). */
  cover: z.object({ fileId: z.number().int(), name: z.string(), size: z.number().int() }).nullable(),
  attachments: z.array(
    z.object({ attachmentId: z.number().int(), name: z.string(), fileName: z.string(), size: z.number().int() }),
  ),
  packages: z.array(packageSchema),
  functions: z.array(
    z.object({ ...functionFields, packageId: z.number().int(), parentId: z.number().int().nullable() }),
  ),
  roles: z.array(z.object({ ...roleFields, functionIds: z.array(z.number().int()) })),
  nodes: z.array(bookedNodeSchema),
  certificateMode: z.number().int().nullable(),
  cost: costSchema,
  costCents: z.number().int().nullable(),
});
export type Draft = z.infer<typeof draftSchema>;

export const draftDataSchema = z.object({
  /** The draft, or null when nothing is saved yet (add before the first save, update before the new version). */
  draft: draftSchema.nullable(),
  /** For `update` before its draft exists: the running service the new version will copy. */
  source: draftSchema.nullable(),
  /** A Fabric network is connected (FABRIC_PEER_ENDPOINT): Go and Java chaincode run there (docs/decisions/052). */
  fabricConnected: z.boolean().default(false),
});

/**
 * Saved basic information as the step-1 form posts it: ticked boxes "on", empty fields left out. The
 * form's default value, and what the backend parses again with `basicInfoSchema` at submission.
 */
export function basicFormValue(basic: Draft["basic"]): Record<string, string> {
  const value: Record<string, string> = {};
  for (const [key, v] of Object.entries(basic)) {
    if (v === true) value[key] = "on";
    else if (typeof v === "string" && v !== "") value[key] = v;
  }
  return value;
}

const savedSchema = z.object({ appId: z.number().int(), wizardStep: z.enum(WIZARD_STEPS) });

/** The cover of the caller's own service (its ETag names the file, so a copy the caller has is a 304). */
export const coverPayload = z.object({ appId: z.number().int().positive() });

/** A wizard draft as Published services lists it (docs/decisions/029). */
export const draftSummarySchema = z.object({
  appId: z.number().int(),
  appVerId: z.number().int(),
  name: z.string(),
  version: z.string(),
  /** How the wizard resumes it: a new service's draft (add) or an upgrade's (update). */
  appState: z.enum(["add", "update"]),
  /** The furthest step reached: the draft is at step WIZARD_STEPS.indexOf(wizardStep) + 1 of 7. */
  wizardStep: z.enum(WIZARD_STEPS),
  updatedAt: z.string(),
});
export type DraftSummary = z.infer<typeof draftSummarySchema>;
export const discardPayload = z.object({ appId: z.number().int().positive(), appVerId: z.number().int().positive() });

/* -------------------------------------------- paths -------------------------------------------- */

export const serviceWizardPaths = {
  "/sys/chainAppInfo/wizard/draft": {
    auth: "user",
    permission: "read",
    payload: draftRefSchema,
    data: draftDataSchema,
  },
  "/sys/chainAppInfo/wizard/drafts": {
    auth: "user",
    permission: "read",
    payload: anyPayload,
    data: z.array(draftSummarySchema),
  },
  "/sys/chainAppInfo/wizard/discard": {
    auth: "user",
    permission: "services",
    payload: discardPayload,
    data: z.object({ name: z.string(), serviceRemoved: z.boolean() }),
  },
  "/sys/chainAppInfo/wizard/saveBasic": {
    auth: "user",
    permission: "services",
    payload: saveBasicPayload,
    data: savedSchema,
  },
  "/sys/chainAppInfo/wizard/addAttachment": {
    auth: "user",
    permission: "services",
    payload: addAttachmentPayload,
    data: savedSchema,
  },
  "/sys/chainAppInfo/wizard/addPackage": {
    auth: "user",
    permission: "services",
    payload: addPackagePayload,
    data: savedSchema,
  },
  "/sys/chainAppInfo/wizard/addFunction": {
    auth: "user",
    permission: "services",
    payload: addFunctionPayload,
    data: savedSchema,
  },
  "/sys/chainAppInfo/wizard/addRole": {
    auth: "user",
    permission: "services",
    payload: addRolePayload,
    data: savedSchema,
  },
  "/sys/chainAppInfo/wizard/delete": {
    auth: "user",
    permission: "services",
    payload: deletePayload,
    data: savedSchema,
  },
  "/sys/chainAppInfo/wizard/saveNodes": {
    auth: "user",
    permission: "services",
    payload: saveNodesPayload,
    data: savedSchema,
  },
  "/sys/chainAppInfo/wizard/saveCertificate": {
    auth: "user",
    permission: "services",
    payload: saveCertificatePayload,
    data: savedSchema,
  },
  "/sys/chainAppInfo/wizard/advance": {
    auth: "user",
    permission: "services",
    payload: advancePayload,
    data: savedSchema,
  },
  "/sys/chainAppInfo/wizard/submit": {
    auth: "user",
    permission: "services",
    payload: submitPayload,
    data: z.object({
      appId: z.number().int(),
      verId: z.number().int(),
      verState: z.number().int(),
      costCents: z.number().int(),
    }),
  },
} satisfies Record<string, PathSpec>;

/** The cover of the caller's own service as bytes (docs/decisions/053). */
export const serviceWizardDownloads = {
  "wizard-cover": { auth: "user", permission: "read", payload: coverPayload },
} satisfies Record<string, DownloadSpec>;
