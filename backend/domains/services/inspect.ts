import { strFromU8, unzipSync } from "fflate";
import type { Finding, Report } from "#contract/services.ts";
import { centralDirectory, entriesProblem, ZIP_LIMITS } from "#backend/kit/zip-safety.ts";

/**
 * What the test job checks in one chaincode package (SPEC §4 "pending test", §5 Chaincode package):
 * the zip opens; its entries stay inside its folder and are of a reasonable number and total size (a zip
 * bomb is refused before anything is inflated: the rules of backend/kit/zip-safety.ts, which the upload
 * already applied); the main function path is in it; its sources are of the declared language; every
 * FUNC declared for the package appears in those sources. Pure: bytes in, findings out.
 */
export { ZIP_LIMITS };

export const LANGUAGE_EXTENSIONS: Record<string, readonly string[]> = {
  go: [".go"],
  java: [".java"],
  node: [".js", ".ts", ".mjs", ".cjs"],
  solidity: [".sol"],
};

/** The wizard's language names and common spellings, to go / java / node. */
export function normaliseLanguage(language: string): string {
  const l = language.trim().toLowerCase();
  if (l === "golang" || l === "go") return "go";
  if (l === "java") return "java";
  if (["node", "nodejs", "node.js", "javascript", "typescript", "js", "ts"].includes(l)) return "node";
  if (l === "solidity" || l === "sol") return "solidity";
  return l;
}

const normalisePath = (p: string) =>
  p
    .replace(/\\/g, "/")
    .replace(/^\.?\/+/, "")
    .replace(/\/+$/, "");

export type PackageToInspect = { name: string; language: string; mainPath: string; funcs: string[] };

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function inspectPackage(bytes: Uint8Array, pkg: PackageToInspect): Finding[] {
  const findings: Finding[] = [];
  const p = { package: pkg.name };
  // First pass: the central directory only (nothing is inflated).
  const entries = centralDirectory(bytes);
  if (!entries) return [{ key: "report.zipInvalid", params: p }];
  const files = entries.filter((e) => !e.name.endsWith("/"));
  if (files.length === 0) return [{ key: "report.zipEmpty", params: p }];
  const problem = entriesProblem(entries);
  if (problem === "unsafePath") return [{ key: "report.zipUnsafePath", params: p }];
  if (problem === "bomb")
    return [
      { key: "report.zipTooLarge", params: { ...p, limitMb: String(ZIP_LIMITS.maxTotalUncompressed / 1024 / 1024) } },
    ];

  const names = files.map((e) => normalisePath(e.name));
  const main = normalisePath(pkg.mainPath);
  const mainFound = main !== "" && names.some((n) => n === main || n.startsWith(`${main}/`));
  if (!mainFound) findings.push({ key: "report.mainPathMissing", params: { ...p, path: pkg.mainPath } });

  const language = normaliseLanguage(pkg.language);
  const extensions = LANGUAGE_EXTENSIONS[language];
  if (!extensions) {
    findings.push({ key: "report.languageUnknown", params: { ...p, language: pkg.language } });
    return findings;
  }
  const isSource = (n: string) => extensions.some((x) => n.toLowerCase().endsWith(x));
  const sourceEntries = new Set(
    files
      .filter((e) => isSource(normalisePath(e.name)) && e.originalSize <= ZIP_LIMITS.maxSourceBytes)
      .map((e) => e.name),
  );
  if (sourceEntries.size === 0) {
    findings.push({
      key: "report.languageMismatch",
      params: { ...p, language: pkg.language, extensions: extensions.join(", ") },
    });
    return findings;
  }
  let sources = "";
  try {
    const unpacked = unzipSync(bytes, { filter: (file) => sourceEntries.has(file.name) });
    sources = Object.values(unpacked)
      .map((b) => strFromU8(b))
      .join("\n");
  } catch {
    return [...findings, { key: "report.zipInvalid", params: p }];
  }
  const missing = pkg.funcs.filter(
    (f) => !new RegExp(`(^|[^A-Za-z0-9_])${escapeRe(f)}([^A-Za-z0-9_]|$)`).test(sources),
  );
  if (missing.length > 0) findings.push({ key: "report.funcMissing", params: { ...p, funcs: missing.join(", ") } });
  return findings;
}

/** The suggestion shown with the reasons (§4 "failure shows reasons and a suggestion"). */
export function suggestionFor(findings: Finding[]): Finding | null {
  if (findings.length === 0) return null;
  const first = findings[0].key;
  if (
    first === "report.zipInvalid" ||
    first === "report.zipEmpty" ||
    first === "report.zipTooLarge" ||
    first === "report.zipUnsafePath"
  )
    return { key: "report.suggest.repackage", params: {} };
  if (first === "report.mainPathMissing") return { key: "report.suggest.mainPath", params: {} };
  if (first === "report.languageMismatch" || first === "report.languageUnknown")
    return { key: "report.suggest.language", params: {} };
  if (first === "report.packageMissing") return { key: "report.suggest.repackage", params: {} };
  if (first === "report.oneChaincode") return { key: "report.suggest.oneChaincode", params: {} };
  if (first === "report.chaincodeRefused" || first === "report.chaincodeInitFailed")
    return { key: "report.suggest.chaincode", params: {} };
  return { key: "report.suggest.funcs", params: {} };
}

/** Reports are kept as app_versions.testReport / deployReport: reasons as JSON strings (ADR 012). */
export type StoredReport = { passed: boolean; reasons: string[]; suggestion?: string };

export function storeReport(findings: Finding[], suggestion: Finding | null): StoredReport {
  return {
    passed: findings.length === 0,
    reasons: findings.map((f) => JSON.stringify(f)),
    ...(suggestion ? { suggestion: JSON.stringify(suggestion) } : {}),
  };
}

function readFinding(value: string): Finding {
  try {
    const parsed = JSON.parse(value) as Finding;
    if (parsed && typeof parsed.key === "string") return { key: parsed.key, params: parsed.params ?? {} };
  } catch {
    // a plain text reason
  }
  return { key: "report.text", params: { text: value } };
}

export function readReport(stored: StoredReport | null | undefined): Report | null {
  if (!stored) return null;
  return {
    passed: stored.passed,
    reasons: stored.reasons.map(readFinding),
    suggestion: stored.suggestion ? readFinding(stored.suggestion) : null,
  };
}

/** The .sol files of a package (path → source), for the compiler. */
export function solidityFilesOfPackage(bytes: Uint8Array): Record<string, string> {
  const out: Record<string, string> = {};
  try {
    for (const [name, data] of Object.entries(
      unzipSync(bytes, { filter: (f) => f.name.toLowerCase().endsWith(".sol") }),
    ))
      out[normalisePath(name)] = strFromU8(data);
  } catch {
    return {};
  }
  return out;
}

type CompileOutcome = { ok: true; contracts: { name: string; abi: unknown[] }[] } | { ok: false; errors: string[] };

/**
 * The compiler's findings on a Solidity package (docs/decisions/034): its errors, or the FUNCs that no
 * contract's ABI has as a function. Pure: the compiler's outcome in, findings out.
 */
export function solidityFindings(pkg: { name: string; funcs: string[] }, outcome: CompileOutcome): Finding[] {
  const p = { package: pkg.name };
  if (!outcome.ok)
    return [{ key: "report.compileFailed", params: { ...p, errors: outcome.errors.join("\n").slice(0, 2000) } }];
  const names = new Set(
    outcome.contracts.flatMap((c) =>
      c.abi
        .filter(
          (i): i is { type: string; name: string } =>
            typeof i === "object" && i !== null && (i as { type?: unknown }).type === "function",
        )
        .map((i) => i.name),
    ),
  );
  const missing = pkg.funcs.filter((f) => !names.has(f));
  return missing.length ? [{ key: "report.funcNotInAbi", params: { ...p, funcs: missing.join(", ") } }] : [];
}
