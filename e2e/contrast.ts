import type { Page } from "@playwright/test";
import { PNG } from "pngjs";

/**
 * The contrast axe cannot decide (issue 30, proof): text over a gradient, an image or a badge whose background axe
 * does not compute comes back "incomplete" for color-contrast. Here it is measured on what the browser painted: the
 * page's text is made transparent, the parts of the page under those texts are shot (not the whole page: one clipped
 * shot per group of nearby texts, docs/decisions/104), and each such text's colour is compared with every pixel of
 * the background under its lines (the worst pixels count, so a gradient is judged at its lightest or darkest point).
 * WCAG AA: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold). Text hidden from assistive technology is skipped
 * (`aria-hidden`), as axe skips it.
 */

/** What the page says of one text axe left undecided. */
type Measured = {
  target: string;
  /** The text's colour, [r, g, b, a] with a in 0..1. */
  color: [number, number, number, number];
  large: boolean;
  /** The boxes of its text runs in page coordinates (CSS pixels): its glyphs' lines, not its padding or corners. */
  boxes: Box[];
};

type Box = { x: number; y: number; width: number; height: number };

export type ContrastFinding = { target: string; ratio: number; needed: number };

const HIDE_TEXT_ID = "e2e-contrast-hide-text";

/** Relative luminance of an sRGB colour (WCAG 2). */
function luminance(r: number, g: number, b: number): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastRatio(a: number, b: number): number {
  const [light, dark] = a > b ? [a, b] : [b, a];
  return (light + 0.05) / (dark + 0.05);
}

/** A shot of part of the page: its pixels and where its top left corner is on the page (CSS pixels). */
export type Shot = { png: PNG; x: number; y: number };

/**
 * The contrast of `text` against the painted pixels under `boxes` (the text's alpha blended over each pixel): the
 * lowest after setting aside the worst 2 % of pixels, which are the anti-aliased edges of whatever borders the text.
 * A background has few distinct colours, so each colour's ratio is computed once and counted (the same answer as a
 * ratio per pixel, sorted).
 */
export function worstContrast(shot: Shot, text: Measured["color"], boxes: Box[], scale: number): number {
  const { png } = shot;
  const [tr, tg, tb, ta] = text;
  const blend = (t: number, b: number) => t * ta + b * (1 - ta);
  const counts = new Map<number, number>();
  let total = 0;
  for (const box of boxes) {
    const x0 = Math.max(0, Math.floor((box.x - shot.x) * scale));
    const y0 = Math.max(0, Math.floor((box.y - shot.y) * scale));
    const x1 = Math.min(png.width, Math.ceil((box.x - shot.x + box.width) * scale));
    const y1 = Math.min(png.height, Math.ceil((box.y - shot.y + box.height) * scale));
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const i = (y * png.width + x) * 4;
        const rgb = (png.data[i] << 16) | (png.data[i + 1] << 8) | png.data[i + 2];
        counts.set(rgb, (counts.get(rgb) ?? 0) + 1);
        total++;
      }
    }
  }
  if (total === 0) return Infinity;
  const ratios = [...counts].map(([rgb, count]) => {
    const [br, bg, bb] = [rgb >> 16, (rgb >> 8) & 255, rgb & 255];
    return {
      ratio: contrastRatio(luminance(blend(tr, br), blend(tg, bg), blend(tb, bb)), luminance(br, bg, bb)),
      count,
    };
  });
  ratios.sort((a, b) => a.ratio - b.ratio);
  // The ratio at index floor(2 % of the pixels) of all the pixels' ratios sorted.
  const index = Math.floor(total * 0.02);
  let seen = 0;
  for (const { ratio, count } of ratios) {
    seen += count;
    if (seen > index) return ratio;
  }
  return ratios[ratios.length - 1].ratio;
}

/**
 * The areas to shoot: each text's boxes as one rectangle (whole CSS pixels, inside the page), rectangles less than
 * `gap` apart joined (a shot has a cost of its own); with the texts (their indices) each area holds.
 */
export function areasOf(
  texts: { boxes: Box[] }[],
  page: { width: number; height: number },
  gap = 200,
): { area: Box; texts: number[] }[] {
  const rects = texts
    .map((t, index) => ({
      index,
      x0: Math.max(0, Math.floor(Math.min(...t.boxes.map((b) => b.x)))),
      y0: Math.max(0, Math.floor(Math.min(...t.boxes.map((b) => b.y)))),
      x1: Math.min(page.width, Math.ceil(Math.max(...t.boxes.map((b) => b.x + b.width)))),
      y1: Math.min(page.height, Math.ceil(Math.max(...t.boxes.map((b) => b.y + b.height)))),
    }))
    .filter((r) => r.x1 > r.x0 && r.y1 > r.y0)
    .sort((a, b) => a.y0 - b.y0);
  const joined: { x0: number; y0: number; x1: number; y1: number; texts: number[] }[] = [];
  for (const r of rects) {
    const last = joined[joined.length - 1];
    if (last && r.y0 <= last.y1 + gap) {
      last.x0 = Math.min(last.x0, r.x0);
      last.x1 = Math.max(last.x1, r.x1);
      last.y1 = Math.max(last.y1, r.y1);
      last.texts.push(r.index);
    } else joined.push({ x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1, texts: [r.index] });
  }
  return joined.map((r) => ({ area: { x: r.x0, y: r.y0, width: r.x1 - r.x0, height: r.y1 - r.y0 }, texts: r.texts }));
}

/** Measures each undecided text of the page; answers those below AA. */
export async function checkUndecidedContrast(page: Page, targets: string[]): Promise<ContrastFinding[]> {
  if (targets.length === 0) return [];
  const measured = await page.evaluate(
    ({ targets, hideId }) => {
      // At the top of the page, where sticky and fixed bars (the console's top bar) sit in their own place: a full
      // page screenshot paints them where the current scroll puts them, over whatever text is there.
      const scrolled = { x: window.scrollX, y: window.scrollY };
      window.scrollTo({ left: 0, top: 0, behavior: "instant" });
      const parse = (css: string): [number, number, number, number] | null => {
        const m = css.match(/rgba?\(([^)]+)\)/);
        if (!m) return null;
        const parts = m[1]
          .split(/[\s,/]+/)
          .filter(Boolean)
          .map(Number);
        return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
      };
      const out: {
        target: string;
        color: [number, number, number, number];
        large: boolean;
        boxes: { x: number; y: number; width: number; height: number }[];
      }[] = [];
      for (const target of targets) {
        const el = document.querySelector(target);
        if (!el || el.closest('[aria-hidden="true"]')) continue;
        const style = getComputedStyle(el);
        // SVG text (a chart's labels) is painted by its fill, not its colour.
        const color = parse(el instanceof SVGElement ? style.fill : style.color);
        // The lines of its own text, not its padding or rounded corners (which show what is behind the badge).
        const boxes: { x: number; y: number; width: number; height: number }[] = [];
        // Its own text (a child element's text has a colour and a verdict of its own), else all of it.
        const own = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
        const texts: Node[] = own;
        if (own.length === 0) {
          const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.textContent?.trim()) texts.push(n);
        }
        for (const node of texts) {
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const r of range.getClientRects()) {
            if (r.width > 0 && r.height > 0) {
              boxes.push({ x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height });
            }
          }
        }
        if (!color || boxes.length === 0) continue;
        const size = parseFloat(style.fontSize);
        const bold = Number(style.fontWeight) >= 700;
        out.push({
          target,
          color,
          large: size >= 24 || (bold && size >= 18.66),
          boxes,
        });
      }
      const hide = document.createElement("style");
      hide.id = hideId;
      hide.textContent =
        "*, *::before, *::after { color: transparent !important; -webkit-text-fill-color: transparent !important;" +
        " text-shadow: none !important; caret-color: transparent !important; text-decoration-color: transparent !important; }" +
        " text, tspan { fill: transparent !important; stroke: transparent !important; }";
      document.head.append(hide);
      const size = {
        width: Math.max(document.documentElement.scrollWidth, document.body?.scrollWidth ?? 0),
        height: Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
      };
      return { out, scale: window.devicePixelRatio, scrolled, size };
    },
    { targets, hideId: HIDE_TEXT_ID },
  );
  const shots = new Map<number, Shot>();
  try {
    // Page coordinates, as the whole page's screenshot had them (the page at its top, fixed bars where they sit
    // there); only the areas under the measured texts are encoded and decoded.
    for (const { area, texts } of areasOf(measured.out, measured.size)) {
      const buffer = await page.screenshot({ fullPage: true, clip: area, animations: "disabled", caret: "hide" });
      const shot = { png: PNG.sync.read(buffer), x: area.x, y: area.y };
      for (const index of texts) shots.set(index, shot);
    }
  } finally {
    await page
      .evaluate(
        ({ hideId, scrolled }) => {
          document.getElementById(hideId)?.remove();
          window.scrollTo({ left: scrolled.x, top: scrolled.y, behavior: "instant" });
        },
        { hideId: HIDE_TEXT_ID, scrolled: measured.scrolled },
      )
      .catch(() => undefined);
  }
  const findings: ContrastFinding[] = [];
  for (const [index, m] of measured.out.entries()) {
    // A text with no area is outside the page (nothing painted under it), as the whole page's shot had no pixels.
    const shot = shots.get(index);
    if (!shot) continue;
    const ratio = worstContrast(shot, m.color, m.boxes, measured.scale);
    const needed = m.large ? 3 : 4.5;
    if (ratio < needed) findings.push({ target: m.target, ratio: Math.round(ratio * 100) / 100, needed });
  }
  return findings;
}
