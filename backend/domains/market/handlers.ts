import { strFromU8, unzipSync, zipSync, strToU8 } from "fflate";
import { and, asc, count, desc, eq, ne, sql } from "drizzle-orm";
import en from "../../../locales/en/market.json";
import zh from "../../../locales/zh-CN/market.json";
import { parseFunctionLines, type MarketFunction } from "#contract/market.ts";
import { Msg } from "#contract/messages.ts";
import type { Finding } from "#contract/services.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { DownloadInput, Payload, SignedInContext } from "#backend/http/router.ts";
import type { DownloadRequest } from "#backend/http/download.ts";
import chain from "#backend/domains/chain/index.ts";
import services from "#backend/domains/services/index.ts";
import { SHIPPED_PACKAGES, type ShippedPackage } from "./samples.ts";
import { marketPackages } from "./tables.ts";

type Row = typeof marketPackages.$inferSelect;
const ZIP_MIME = "application/zip";

const view = (r: Row) => ({
  marketPackageId: r.id,
  name: r.name,
  language: r.language as "go" | "java" | "node" | "solidity",
  version: r.version,
  descriptionEn: r.descriptionEn,
  descriptionZh: r.descriptionZh,
  mainPath: r.mainPath,
  initParams: r.initParams,
  functions: r.functions,
  fileName: r.fileName,
  size: r.size,
  downloads: r.downloads,
  status: r.status as "published" | "withdrawn",
  updatedAt: r.updatedAt.toISOString(),
});

/** The zip of a shipped package (fixed entry times, so the same sources give the same bytes). */
export function zipOf(pkg: ShippedPackage): Uint8Array {
  const mtime = new Date("2026-01-01T00:00:00Z");
  return zipSync(
    Object.fromEntries(Object.entries(pkg.files).map(([path, text]) => [path, [strToU8(text), { mtime }]])),
  );
}

const SHIPPED_TEXT = {
  en: en.shipped as Record<string, { description: string }>,
  zh: zh.shipped as Record<string, { description: string }>,
};

/**
 * What the service test job finds in a package (services' inspection, and the compiler for Solidity:
 * backend/domains/services/jobs.ts does the same). No finding: the package passes.
 */
export async function findingsOf(
  bytes: Uint8Array,
  pkg: { name: string; language: string; mainPath: string; funcs: string[] },
): Promise<Finding[]> {
  const found = services.api.inspectPackage(bytes, pkg);
  if (found.length || pkg.language !== "solidity") return found;
  return services.api.solidityFindings(
    { name: pkg.name, funcs: pkg.funcs },
    await chain.api.compile(services.api.solidityFilesOfPackage(bytes)),
  );
}

/**
 * Start: the shipped packages (docs/decisions/042). A package never written is written; one an operator has not
 * changed is brought to the product's version; one an operator changed or withdrew is theirs.
 */
export async function writeShippedPackages(deps: Pick<Deps, "db" | "now" | "files">): Promise<void> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('market.shipped'))`);
    for (const pkg of SHIPPED_PACKAGES) {
      const [current] = await tx.select().from(marketPackages).where(eq(marketPackages.shippedKey, pkg.key));
      if (current && (current.operatorEdited || current.version === pkg.version)) continue;
      const bytes = zipOf(pkg);
      const text = {
        descriptionEn: SHIPPED_TEXT.en[pkg.key]?.description ?? "",
        descriptionZh: SHIPPED_TEXT.zh[pkg.key]?.description ?? "",
      };
      const stored = await deps.files.put(tx, { name: `${pkg.name}.zip`, mime: ZIP_MIME, bytes, createdAt: now });
      const fields = {
        name: pkg.name,
        language: pkg.language,
        version: pkg.version,
        mainPath: pkg.mainPath,
        initParams: pkg.initParams,
        functions: pkg.functions,
        fileId: stored.id,
        fileName: stored.name,
        size: stored.size,
        ...text,
        updatedAt: now,
      };
      if (current) await tx.update(marketPackages).set(fields).where(eq(marketPackages.id, current.id));
      else {
        // An operator's entry may hold the name already: the shipped one is then left out.
        const [clash] = await tx
          .select({ id: marketPackages.id })
          .from(marketPackages)
          .where(sql`lower(${marketPackages.name}) = lower(${pkg.name})`);
        if (!clash) await tx.insert(marketPackages).values({ ...fields, shippedKey: pkg.key, createdAt: now });
      }
    }
  });
}

async function published(q: Db | Tx, marketPackageId: number): Promise<Row> {
  const [row] = await q.select().from(marketPackages).where(eq(marketPackages.id, marketPackageId));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  if (row.status !== "published") throw new ApiError(Msg.MARKET_WITHDRAWN);
  return row;
}

export async function list(input: Payload<"/sys/market/list">, ctx: SignedInContext) {
  const { db } = ctx.deps;
  const where = and(
    eq(marketPackages.status, "published"),
    input.language ? eq(marketPackages.language, input.language) : undefined,
  );
  const [{ total }] = await db.select({ total: count() }).from(marketPackages).where(where);
  const rows = await db
    .select()
    .from(marketPackages)
    .where(where)
    .orderBy(desc(marketPackages.downloads), asc(marketPackages.name))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return { page: { rows: rows.map(view), total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

const TEXT_MAX = 200 * 1024;

/** The files of a zip: the UTF-8 text of each small text file (a binary or large file: null). */
export function filesOf(bytes: Uint8Array) {
  const out: { path: string; size: number; text: string | null }[] = [];
  const unpacked = unzipSync(bytes, { filter: (f) => !f.name.endsWith("/") && f.originalSize <= TEXT_MAX });
  const sizes = new Map<string, number>();
  unzipSync(bytes, {
    filter: (f) => {
      sizes.set(f.name, f.originalSize);
      return false;
    },
  });
  for (const [path, size] of [...sizes].sort(([a], [b]) => a.localeCompare(b))) {
    if (path.endsWith("/")) continue;
    const data = unpacked[path];
    const text = data && !data.includes(0) ? strFromU8(data) : null;
    out.push({ path, size, text });
  }
  return out;
}

export async function detail(input: Payload<"/sys/market/detail">, ctx: SignedInContext) {
  const row = await published(ctx.deps.db, input.marketPackageId);
  const file = await ctx.deps.files.read(ctx.deps.db, row.fileId);
  if (!file) throw new ApiError(Msg.NOT_FOUND);
  return { ...view(row), files: filesOf(new Uint8Array(file.bytes)) };
}

/** The zip of a published package (streamed by the download, docs/decisions/053); a download is counted once, not each range of it. */
export async function download(input: DownloadInput<"market-package">, ctx: SignedInContext, request: DownloadRequest) {
  const row = request.continuing
    ? await published(ctx.deps.db, input.marketPackageId)
    : await ctx.deps.db.transaction(async (tx) => {
        await published(tx, input.marketPackageId);
        const [counted] = await tx
          .update(marketPackages)
          .set({ downloads: sql`${marketPackages.downloads} + 1` })
          .where(eq(marketPackages.id, input.marketPackageId))
          .returning();
        return counted!;
      });
  return { fileId: row.fileId, name: row.fileName, mime: ZIP_MIME };
}

/* ------------------------------------------ operations ----------------------------------------- */

export async function opsList(input: Payload<"/sys/ops/market/list">, ctx: SignedInContext) {
  const { db } = ctx.deps;
  const [{ total }] = await db.select({ total: count() }).from(marketPackages);
  const rows = await db
    .select()
    .from(marketPackages)
    .orderBy(asc(marketPackages.name))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return { page: { rows: rows.map(view), total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/**
 * Adds or updates an entry. The zip is an upload of kind chaincode (checked while it arrived like the wizard's)
 * and must pass the test job's inspection with the entry's language, main path and functions.
 */
export async function opsSave(input: Payload<"/sys/ops/market/save">, ctx: SignedInContext) {
  const { form } = input;
  const now = ctx.deps.now();
  const { functions } = parseFunctionLines(form.functions);
  return ctx.deps.db.transaction(async (tx) => {
    const [current] = input.marketPackageId
      ? await tx.select().from(marketPackages).where(eq(marketPackages.id, input.marketPackageId)).for("update")
      : [];
    if (input.marketPackageId && !current) throw new ApiError(Msg.NOT_FOUND);
    const [clash] = await tx
      .select({ id: marketPackages.id })
      .from(marketPackages)
      .where(
        and(
          sql`lower(${marketPackages.name}) = lower(${form.name})`,
          current ? ne(marketPackages.id, current.id) : undefined,
        ),
      );
    if (clash) throw fieldError("form.name", Msg.MARKET_NAME_TAKEN, Msg.MARKET_NAME_TAKEN);
    let fileId = current?.fileId;
    if (input.file) {
      const claimed = await ctx.deps.files.claim(tx, input.file.uploadId, {
        kind: "chaincode",
        ownerId: ctx.user.id,
        at: now,
      });
      if (!claimed) throw fieldError("file", `errors:${Msg.UPLOAD_FAILED}`, Msg.UPLOAD_FAILED);
      fileId = claimed.id;
    }
    if (!fileId) throw fieldError("file", `errors:${Msg.MARKET_FILE_REQUIRED}`, Msg.MARKET_FILE_REQUIRED);
    const file = await ctx.deps.files.read(tx, fileId);
    if (!file) throw new ApiError(Msg.NOT_FOUND);
    const findings = await findingsOf(new Uint8Array(file.bytes), {
      name: form.name,
      language: form.language,
      mainPath: form.mainPath,
      funcs: functions.map((f) => f.func),
    });
    if (findings.length)
      throw new ApiError(Msg.MARKET_PACKAGE_INVALID, {
        findings,
        fieldErrors: { file: [`errors:${Msg.MARKET_PACKAGE_INVALID}`] },
      });
    const fields = {
      name: form.name,
      language: form.language,
      version: form.version,
      descriptionEn: form.descriptionEn,
      descriptionZh: form.descriptionZh,
      mainPath: form.mainPath,
      initParams: (form.initParams ?? "")
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean)
        .join(","),
      functions,
      fileId,
      fileName: file.name,
      size: file.size,
      operatorEdited: true,
      updatedAt: now,
    };
    if (current) {
      await tx.update(marketPackages).set(fields).where(eq(marketPackages.id, current.id));
      return { marketPackageId: current.id, name: form.name };
    }
    const [row] = await tx
      .insert(marketPackages)
      .values({ ...fields, createdAt: now })
      .returning({ id: marketPackages.id });
    return { marketPackageId: row.id, name: form.name };
  });
}

export async function opsWithdraw(input: Payload<"/sys/ops/market/withdraw">, ctx: SignedInContext) {
  const status = input.withdrawn ? ("withdrawn" as const) : ("published" as const);
  const [row] = await ctx.deps.db
    .update(marketPackages)
    .set({ status, operatorEdited: true, updatedAt: ctx.deps.now() })
    .where(eq(marketPackages.id, input.marketPackageId))
    .returning({ id: marketPackages.id });
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return { marketPackageId: row.id, status };
}

/**
 * For the publish wizard (service-wizard's saveBasic with a marketPackageId): the published entry with its
 * file, to copy into a new draft. Withdrawn: MSG_46207; unknown: not found.
 */
export async function packageForDraft(
  q: Db | Tx,
  marketPackageId: number,
): Promise<{
  name: string;
  version: string;
  language: string;
  mainPath: string;
  initParams: string;
  functions: MarketFunction[];
  fileId: number;
}> {
  const row = await published(q, marketPackageId);
  return {
    name: row.name,
    version: row.version,
    language: row.language,
    mainPath: row.mainPath,
    initParams: row.initParams,
    functions: row.functions,
    fileId: row.fileId,
  };
}

/**
 * The published Solidity entries as IDE templates (issue 18: "the chaincode market's Solidity entries"): each
 * entry's `.sol` files by path, under its own name. Read when a user lists or picks templates; withdrawn
 * entries are not offered.
 */
export async function solidityTemplates(
  deps: Pick<Deps, "db" | "files">,
): Promise<{ marketPackageId: number; name: string; version: string; files: Record<string, string> }[]> {
  const rows = await deps.db
    .select()
    .from(marketPackages)
    .where(and(eq(marketPackages.status, "published"), eq(marketPackages.language, "solidity")))
    .orderBy(asc(marketPackages.name));
  const out = [];
  for (const row of rows) {
    const file = await deps.files.read(deps.db, row.fileId);
    if (!file) continue;
    const files: Record<string, string> = {};
    for (const f of filesOf(new Uint8Array(file.bytes)))
      if (f.text !== null && f.path.endsWith(".sol")) files[f.path] = f.text;
    if (Object.keys(files).length > 0)
      out.push({ marketPackageId: row.id, name: row.name, version: row.version, files });
  }
  return out;
}
