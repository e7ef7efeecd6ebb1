import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { paths } from "#contract/paths.ts";
import { domains, endpoints } from "#backend/index.ts";
import template from "#backend/domains/_template/index.ts";

/** The domain list of backend/index.ts (docs/decisions/018): one shape, every path answered exactly once. */
describe("the domains", () => {
  const folders = readdirSync(path.resolve(__dirname, "../../backend/domains")).filter((f) => !f.startsWith("_"));

  it("lists every domain folder once, by its folder's name", () => {
    expect(domains.map((d) => d.name).sort()).toEqual([...folders].sort());
  });

  it("answers every /vueapi path of the contract exactly once", () => {
    const answered = domains.flatMap((d) => [...Object.keys(d.handlers ?? {}), ...Object.keys(d.fixtures ?? {})]);
    expect(answered.filter((p, i) => answered.indexOf(p) !== i)).toEqual([]);
    expect([...answered].sort()).toEqual(Object.keys(paths).sort());
  });

  it("keeps test fixtures on /test/ paths only", () => {
    for (const d of domains) for (const p of Object.keys(d.fixtures ?? {})) expect(p.startsWith("/test/")).toBe(true);
    for (const d of domains) for (const p of Object.keys(d.handlers ?? {})) expect(p.startsWith("/test/")).toBe(false);
  });

  it("gives every job kind one handler and every endpoint its limits", () => {
    const kinds = domains.flatMap((d) => Object.keys(d.jobs ?? {}));
    expect(kinds.filter((k, i) => kinds.indexOf(k) !== i)).toEqual([]);
    for (const e of endpoints) {
      expect(e.path.startsWith("/")).toBe(true);
      expect(e.bodyLimitBytes).toBeGreaterThan(0);
      expect(e.methods.length).toBeGreaterThan(0);
      expect(e.path.startsWith("/vueapi")).toBe(false);
    }
  });
});

/** Issue 27 item 6: a file that grows past this is split (handlers by caller, the rest by concern). */
const MOST_LINES = 400;

describe("the size of the domains' files", () => {
  it(`keeps every .ts file under backend/domains at most ${MOST_LINES} lines`, () => {
    const root = path.resolve(__dirname, "../../backend/domains");
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(100);
    const over = files
      .map((f) => ({ file: `backend/domains/${f.split(path.sep).join("/")}`, lines: lineCount(path.join(root, f)) }))
      .filter((f) => f.lines > MOST_LINES)
      .map((f) => `${f.file}: ${f.lines} lines`)
      .sort();
    expect(over).toEqual([]);
  });
});

/**
 * The write boundary (docs/decisions/018, issue 27 item 1): a domain inserts, updates or deletes only the tables
 * it owns (those of its own tables files); another domain's records change through that domain's `api`. The
 * kernel tables of backend/db/tables.ts each have one owner. Reads (joins) stay allowed.
 */
const KERNEL_OWNERS: Record<string, string> = {
  files: "the storage kit",
  users: "accounts",
  authTokens: "accounts",
  rateLimits: "the rate-limit kit",
  cityNodes: "platform",
  messages: "inbox",
  jobs: "the job runner",
  auditLog: "audit",
  teamActivity: "the activity kit",
  searchTerms: "the search kit",
};

function crossDomainWrites(domainsRoot: string, kernelTables: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .map((f) => path.join(dir, f));
  const tableRe = /export const (\w+) = pgTable\(\s*"(\w+)"/g;
  const byVar = new Map<string, string>(Object.entries(KERNEL_OWNERS));
  const bySql = new Map<string, string>();
  for (const m of readFileSync(kernelTables, "utf8").matchAll(tableRe))
    bySql.set(m[2], KERNEL_OWNERS[m[1]] ?? "kernel");
  const domainNames = readdirSync(domainsRoot, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith("_"))
    .map((d) => d.name);
  const filesOf = new Map(domainNames.map((d) => [d, walk(path.join(domainsRoot, d))]));
  for (const [d, files] of filesOf)
    for (const f of files.filter((f) => /tables[^/]*\.ts$/.test(path.basename(f))))
      for (const m of readFileSync(f, "utf8").matchAll(tableRe)) {
        byVar.set(m[1], d);
        bySql.set(m[2], d);
      }
  const hits: string[] = [];
  for (const [d, files] of filesOf)
    for (const f of files) {
      const src = readFileSync(f, "utf8");
      const rel = path.relative(path.dirname(domainsRoot), f).split(path.sep).join("/");
      const aliases = new Map<string, string>();
      for (const m of src.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from/g))
        for (const part of m[1].split(",")) {
          const [name, local] = part.trim().split(/\s+as\s+/);
          if (local) aliases.set(local.trim(), name.trim());
        }
      for (const m of src.matchAll(/\.(insert|update|delete)\(\s*([\w.]+)\s*\)/g)) {
        const local = m[2].split(".").pop()!;
        const owner = byVar.get(aliases.get(local) ?? local);
        if (owner && owner !== d) hits.push(`${rel}: ${m[1]} ${aliases.get(local) ?? local} (owned by ${owner})`);
      }
      for (const m of src.matchAll(/\b(insert\s+into|update|delete\s+from)\s+"?(\w+)"?/gi)) {
        const owner = bySql.get(m[2]);
        if (owner && owner !== d) hits.push(`${rel}: SQL ${m[1]} ${m[2]} (owned by ${owner})`);
      }
    }
  return hits.sort();
}

describe("the write boundary", () => {
  const domainsRoot = path.resolve(__dirname, "../../backend/domains");
  const kernel = path.resolve(__dirname, "../../backend/db/tables.ts");

  it("lets a domain write only its own tables; others' records change through their api", () => {
    expect(crossDomainWrites(domainsRoot, kernel)).toEqual([]);
  });

  it("sees a write to another domain's table (the check itself can fail)", () => {
    const copy = mkdtempSync(path.join(tmpdir(), "boundary-"));
    try {
      mkdirSync(path.join(copy, "billing"));
      copyFileSync(path.join(domainsRoot, "billing", "tables.ts"), path.join(copy, "billing", "tables.ts"));
      mkdirSync(path.join(copy, "store"));
      writeFileSync(
        path.join(copy, "store", "writes.ts"),
        'import { bills as b } from "#backend/domains/billing/tables.ts";\nexport const w = (db: any) => db.insert(b);\n',
      );
      expect(crossDomainWrites(copy, kernel)).toEqual([
        `${path.basename(copy)}/store/writes.ts: insert bills (owned by billing)`,
      ]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

/**
 * No magic state numbers (issue 27 item 7): a state or status is compared with, or queried by, the named code
 * of its machine or enum (contract/state-machine.ts machines, contract/payment-machines.ts, contract/*-codes.ts,
 * contract/service-status.ts), never a bare number. A number of three digits is an HTTP status, not a state.
 */
const BARE_STATE_NUMBER = [
  /\b\w*(?:State|Status|state|status)\s*[=!]==?\s*\d{1,2}(?!\d)/g,
  /(?<![\w.])\d{1,2}\s*[=!]==?\s*[\w.]*(?:State|Status|state|status)\b/g,
  /\b(?:eq|ne)\(\s*[\w.]*(?:State|Status|state|status)\s*,\s*\d{1,2}\s*\)/g,
];

function bareStateNumbers(root: string, folders: string[]): string[] {
  const hits: string[] = [];
  for (const folder of folders) {
    const dir = path.join(root, folder);
    for (const f of readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => /\.tsx?$/.test(f))) {
      const rel = `${folder}/${f.split(path.sep).join("/")}`;
      readFileSync(path.join(dir, f), "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (/^\s*(\/\/|\/?\*)/.test(line)) return;
          for (const re of BARE_STATE_NUMBER) for (const m of line.matchAll(re)) hits.push(`${rel}:${i + 1}: ${m[0]}`);
        });
    }
  }
  return hits.sort();
}

describe("no magic state numbers", () => {
  it("names every state a handler or a route compares or queries by", () => {
    expect(bareStateNumbers(path.resolve(__dirname, "../.."), ["backend/domains", "app/routes"])).toEqual([]);
  });

  it("sees a bare state number (the check itself can fail)", () => {
    const copy = mkdtempSync(path.join(tmpdir(), "states-"));
    try {
      mkdirSync(path.join(copy, "routes"));
      writeFileSync(
        path.join(copy, "routes", "queue.ts"),
        [
          "// a comment may say verState === 25",
          "export const running = (row: any) => row.verState === 25;",
          "export const pending = (t: any) => eq(t.status, 1);",
          "export const paid = (bill: any) => 15 !== bill.payState;",
          "export const named = (row: any) => row.verState === VerState.RUNNING;",
          "export const missing = (result: any) => result.status === 404;",
        ].join("\n"),
      );
      expect(bareStateNumbers(copy, ["routes"])).toEqual([
        "routes/queue.ts:2: verState === 25",
        "routes/queue.ts:3: eq(t.status, 1)",
        "routes/queue.ts:4: 15 !== bill.payState",
      ]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

/** Lines as `wc -l` counts them: a final newline ends the last line. */
function lineCount(file: string): number {
  const text = readFileSync(file, "utf8");
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

describe("the template domain's rule, by table", () => {
  it.each([
    [0, 3, true],
    [2, 3, true],
    [3, 3, false],
    [-1, 3, false],
    [1.5, 3, false],
  ])("isWithinLimit(%d, %d) is %s", (count, limit, expected) => {
    expect(template.api.isWithinLimit(count, limit)).toBe(expected);
  });
});
