import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, openSync, closeSync, rmSync } from "node:fs";
import path from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import axe, { type AxeResults, type RunOptions } from "axe-core";
import { checkUndecidedContrast } from "./contrast.ts";

/**
 * axe-core on every page the JavaScript-on project visits (docs/decisions/028).
 *
 * A page is analysed once it has hydrated and Remix is idle, after each main-frame navigation (a goto, a
 * link, a form's redirect) and once more at the end of the test. A page state is analysed once per run,
 * whichever worker meets it first: its key is the language, the path with ids replaced by ":id", the names
 * of its query parameters (with the value of those that pick a view: step, tab...) and whether it shows a
 * form error. A retry analyses again whatever it meets, so a
 * violation fails the retry too and cannot pass as flaky.
 *
 * E2E_AXE=report records violations in DATA_DIR/axe-report.jsonl without failing (for counting them);
 * E2E_AXE=off turns the analysis off.
 */

const MODE = process.env.E2E_AXE ?? "fail";
const DIR = path.join(process.env.E2E_DATA_DIR ?? "", "axe");

export type Found = { key: string; url: string; rule: string; impact: string; help: string; targets: string[] };

type PageState = { lang: string; path: string; params: string[]; error: boolean; ready: boolean };

function stateOf(page: Page): Promise<PageState> {
  return page.evaluate(() => {
    const router = (
      window as unknown as { __remixRouter?: { state: { navigation: { state: string }; revalidation: string } } }
    ).__remixRouter;
    return {
      lang: document.documentElement.lang,
      path: location.pathname,
      // A parameter that picks a view (a wizard's step, a tab) counts with its value; others (ids, pages) by name.
      params: [
        ...new Set(
          [...new URLSearchParams(location.search)].map(([name, value]) =>
            /^(step|tab|type|kind|panel|confirm|view|mode)$/.test(name) ? `${name}=${value}` : name,
          ),
        ),
      ].sort(),
      error: !!document.querySelector('[aria-invalid="true"], .field-error, [data-testid="form-error"]'),
      ready:
        document.readyState === "complete" &&
        document.documentElement.dataset.hydrated === "true" &&
        (!router || (router.state.navigation.state === "idle" && router.state.revalidation === "idle")),
    };
  });
}

/** Ids in a path (numbers, uuids, long tokens) are one page, not one page per id. */
export function keyOf(state: Pick<PageState, "lang" | "path" | "params" | "error">) {
  const pathKey = state.path
    .split("/")
    .map((segment) => (/^\d+$|^[0-9a-f-]{16,}$|^(?=.*\d)[A-Za-z0-9_-]{16,}$/i.test(segment) ? ":id" : segment))
    .join("/");
  return `${state.lang} ${pathKey}${state.params.length ? `?${state.params.join("&")}` : ""}${state.error ? " (form error)" : ""}`;
}

/** The first worker to claim a key analyses it; the claim is a file created exclusively. */
function claim(key: string): (() => void) | null {
  mkdirSync(DIR, { recursive: true });
  const file = path.join(DIR, createHash("sha1").update(key).digest("hex").slice(0, 20));
  try {
    closeSync(openSync(file, "wx"));
  } catch {
    return null;
  }
  return () => rmSync(file, { force: true });
}

/**
 * Claims a page state for an analysis the test itself forces (e2e/accessibility.spec.ts), before it opens the page:
 * no watch analyses that state again in this run, in that test or another, as the forced analysis is the run's.
 */
export function reserve(state: Pick<PageState, "lang" | "path" | "params" | "error">) {
  if (MODE !== "off") claim(keyOf(state));
}

/**
 * Every rule runs on every node as before; only the passing and inapplicable results are not listed node by node
 * (one node each), as nothing here reads them: the violations and the undecided ("incomplete") come back whole.
 * Listing every passing node (its HTML and selector) and carrying it out of the page is work nothing here reads
 * (docs/decisions/104).
 */
const OPTIONS: RunOptions = { resultTypes: ["violations", "incomplete"] };

/**
 * axe-core's own `axe.run` in the page, injected into each of its frames once per document (a client-side navigation
 * keeps it). Not through @axe-core/playwright, which injected the 0.5 MB source again at every analysis and, outside
 * its legacy mode, ran each frame's part apart and then merged them in a new blank page it opened for each
 * analysis: the same results for two and a half times the CPU (docs/decisions/112). The portal has no frames of
 * another origin, the one case that merge was for.
 */
async function run(page: Page): Promise<AxeResults> {
  for (const frame of page.frames()) {
    try {
      if (!(await frame.evaluate(() => typeof (window as { axe?: unknown }).axe === "object")))
        await frame.evaluate(axe.source);
    } catch {
      // A frame that went away meanwhile: axe.run in the page leaves out frames it cannot reach.
    }
  }
  return page.evaluate((options) => (window as unknown as { axe: typeof axe }).axe.run(document, options), OPTIONS);
}

export function format(found: Found[]) {
  return found
    .map(
      (f) =>
        `- [${f.key}] ${f.rule} (${f.impact}): ${f.help}\n    ${f.targets.slice(0, 5).join("\n    ")}${f.targets.length > 5 ? `\n    … ${f.targets.length - 5} more` : ""}`,
    )
    .join("\n");
}

/**
 * Analyses the page now, if its state was not analysed yet in this run (or `force`). Returns what it found,
 * or null when the page was left during the analysis (then the state stays unclaimed for a later visit).
 */
export function analyse(page: Page, options: { force?: boolean } = {}): Promise<Found[] | null> {
  // One analysis at a time in a page: axe refuses to start while it runs.
  const previous = running.get(page) ?? Promise.resolve();
  const next = previous.catch(() => null).then(() => analyseNow(page, options));
  running.set(page, next);
  return next;
}

const running = new WeakMap<Page, Promise<unknown>>();

async function analyseNow(page: Page, options: { force?: boolean }): Promise<Found[] | null> {
  if (MODE === "off" || page.isClosed()) return [];
  const before = await stateOf(page);
  const url = page.url();
  const key = keyOf(before);
  const release = options.force ? () => {} : claim(key);
  if (!release) return [];
  let results;
  let contrast;
  try {
    results = await run(page);
    // A page left during axe's run is analysed again by a later visit: no contrast measurement of it now.
    if (page.url() !== url || keyOf(await stateOf(page)) !== key) throw new Error("left during the analysis");
    // What axe left undecided about contrast is measured on the painted page (e2e/contrast.ts).
    const undecided = results.incomplete
      .filter((r) => r.id === "color-contrast")
      .flatMap((r) => r.nodes.filter(measurable).map((n) => n.target))
      .filter((target) => target.length === 1 && typeof target[0] === "string")
      .map((target) => target[0] as string);
    contrast = await checkUndecidedContrast(page, undecided);
    const after = await stateOf(page);
    if (page.url() !== url || keyOf(after) !== key) throw new Error("left during the analysis");
  } catch {
    release();
    return null;
  }
  const found = results.violations
    .map((v) => ({
      key,
      url,
      rule: v.id,
      impact: v.impact ?? "",
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")).filter((target) => !transientPortal(v.id, target)),
    }))
    .filter((f) => f.targets.length > 0);
  if (contrast.length > 0) {
    found.push({
      key,
      url,
      rule: "color-contrast (measured)",
      impact: "serious",
      help: "Text axe could not judge is below WCAG AA against the pixels painted behind it",
      targets: contrast.map((c) => `${c.target} (${c.ratio}:1, needs ${c.needed}:1)`),
    });
  }
  mkdirSync(DIR, { recursive: true });
  appendFileSync(
    path.join(DIR, "..", "axe-report.jsonl"),
    found.map((f) => `${JSON.stringify(f)}\n`).join("") || `${JSON.stringify({ key, url, rule: null })}\n`,
  );
  return found;
}

/**
 * Why axe could not judge a text's contrast, where the painted pixels can: a background that is a gradient or an
 * image, content of a pseudo-element, or a colour with transparency. Text that something covers (a chart's labels
 * over its plot, a link under an open menu) is not measured: its pixels are the cover's, not its background's.
 */
const MEASURABLE = new Set(["bgGradient", "bgImage", "pseudoContent", "fgAlpha", "bgFilter", "imgNode"]);

function measurable(node: { any: { data?: unknown }[] }): boolean {
  const reason = (node.any[0]?.data as { messageKey?: string } | undefined)?.messageKey;
  return reason !== undefined && MEASURABLE.has(reason);
}

/**
 * Headless UI's portal root (the body-level holder of dialogs and menus) is outside every landmark only while a
 * dialog or menu inside it is leaving: open, its content is a dialog or menu (exempt from "region"); closed, the
 * root is empty. Caught between the two (an analysis started as a dialog closed), it is not a finding.
 */
const transientPortal = (rule: string, target: string) => rule === "region" && target === "#headlessui-portal-root";

/** How long the end of a test waits for the analyses under way, and for the last page's. */
const FINISH_MS = 30_000;

/** `promise`, or nothing once `ms` have passed (with a line in the test's output saying so). */
async function within(promise: Promise<unknown>, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.warn(`[axe] an analysis took more than ${ms / 1000} s; the test goes on without it`);
      resolve();
    }, ms);
  });
  try {
    await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Watches a page of a JavaScript-on test: each main-frame navigation schedules an analysis once the page is
 * ready; `finish` waits for them, analyses the last page and throws on any violation.
 */
export class AxeWatch {
  private queue: Promise<void> = Promise.resolve();
  private found: Found[] = [];
  private pages: Page[] = [];

  constructor(private testInfo: TestInfo) {}

  watch(page: Page) {
    if (MODE === "off") return;
    this.pages.push(page);
    watches.set(page, this);
    page.on("framenavigated", (frame) => {
      if (frame !== page.mainFrame()) return;
      const url = frame.url();
      this.queue = this.queue.then(() => this.whenReady(page, url)).catch(() => {});
    });
  }

  private async whenReady(page: Page, url: string) {
    if (page.isClosed() || page.url() !== url) return;
    // Wait for hydration and an idle router, in small polls so a navigation away ends the wait.
    for (let i = 0; i < 100; i++) {
      if (page.isClosed() || page.url() !== url) return;
      const state = await stateOf(page).catch(() => null);
      if (state?.ready) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    if (page.isClosed() || page.url() !== url) return;
    const found = await analyse(page, { force: this.testInfo.retry > 0 }).catch(() => null);
    if (found) this.found.push(...found);
  }

  /** Until the analyses scheduled so far are done (the last navigation's included). */
  async idle() {
    let queue;
    do {
      queue = this.queue;
      await within(queue, FINISH_MS);
    } while (queue !== this.queue);
  }

  async finish() {
    if (MODE === "off") return;
    // Bounded: a page that stops answering (a stalled evaluate in a second context) must not hold the test's
    // teardown until its timeout; what was not analysed then is analysed by a later visit or run.
    await within(this.queue, FINISH_MS);
    for (const page of this.pages) {
      // A page that never left its blank start (a test skipped in its body) has nothing to analyse.
      if (page.isClosed() || page.url() === "about:blank") continue;
      await within(
        this.whenReady(page, page.url()).catch(() => {}),
        FINISH_MS,
      );
    }
    if (this.found.length > 0 && MODE !== "report") {
      throw new Error(`axe found ${this.found.length} accessibility violation(s):\n${format(this.found)}`);
    }
  }
}

const watches = new WeakMap<Page, AxeWatch>();

/**
 * Waits until axe is done with the page as it is now: its contrast measurement makes the page's text transparent for
 * a moment (e2e/contrast.ts), so a screenshot waits for it (e2e/visual.spec.ts).
 */
export async function axeIdle(page: Page) {
  await watches.get(page)?.idle();
}
