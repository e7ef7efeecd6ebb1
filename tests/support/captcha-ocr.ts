import { PNG } from "pngjs";
import {
  CAPTCHA_ALPHABET,
  CAPTCHA_LENGTH,
  renderCaptcha,
  type Random,
} from "#backend/domains/accounts/captcha-image.ts";

/**
 * A simple OCR attacker on the image captcha (issue 29 item 3, docs/decisions/061), the kind of short script that
 * read the old captcha: threshold the image to its dark pixels, cut it into glyphs by column projection (blank
 * columns between glyphs; when the count is off, split the widest piece or join the closest pair), scale each
 * glyph to a small grid and take the reference glyph nearest by Hamming distance. The reference glyphs are drawn
 * by the same generator at known answers, in its plain style.
 */

type Bitmap = { width: number; height: number; dark: Uint8Array };

/** Decodes the generator's PNG and keeps its dark pixels. */
export function darkPixels(png: Buffer): Bitmap {
  const { width, height, data } = PNG.sync.read(png);
  const dark = new Uint8Array(width * height);
  for (let p = 0; p < width * height; p++) {
    const luminance = 0.299 * data[p * 4]! + 0.587 * data[p * 4 + 1]! + 0.114 * data[p * 4 + 2]!;
    dark[p] = luminance < 140 ? 1 : 0;
  }
  return { width, height, dark };
}

/** Column ranges [from, to) holding a glyph each, `count` of them. */
function segments(image: Bitmap, count: number): [number, number][] {
  const inked = (x: number) => {
    let n = 0;
    for (let y = 0; y < image.height; y++) n += image.dark[y * image.width + x]!;
    return n >= 2;
  };
  let pieces: [number, number][] = [];
  let start = -1;
  for (let x = 0; x <= image.width; x++) {
    const ink = x < image.width && inked(x);
    if (ink && start < 0) start = x;
    if (!ink && start >= 0) {
      if (x - start >= 4) pieces.push([start, x]);
      start = -1;
    }
  }
  if (pieces.length === 0) return [];
  while (pieces.length < count) {
    let widest = 0;
    pieces.forEach(([a, b], i) => {
      if (b - a > pieces[widest]![1] - pieces[widest]![0]) widest = i;
    });
    const [a, b] = pieces[widest]!;
    const mid = Math.round((a + b) / 2);
    pieces.splice(widest, 1, [a, mid], [mid, b]);
  }
  while (pieces.length > count) {
    let closest = 0;
    for (let i = 1; i < pieces.length - 1; i++)
      if (pieces[i + 1]![0] - pieces[i]![1] < pieces[closest + 1]![0] - pieces[closest]![1]) closest = i;
    pieces = [
      ...pieces.slice(0, closest),
      [pieces[closest]![0], pieces[closest + 1]![1]],
      ...pieces.slice(closest + 2),
    ];
  }
  return pieces;
}

const GRID_W = 12;
const GRID_H = 16;

/** The glyph between columns [from, to), cropped to its dark rows and scaled to a GRID_W × GRID_H grid. */
function grid(image: Bitmap, [from, to]: [number, number]): Uint8Array {
  let top = image.height;
  let bottom = -1;
  for (let y = 0; y < image.height; y++)
    for (let x = from; x < to; x++)
      if (image.dark[y * image.width + x]) {
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
      }
  const cells = new Uint8Array(GRID_W * GRID_H);
  if (bottom < 0) return cells;
  const w = to - from;
  const h = bottom - top + 1;
  for (let gy = 0; gy < GRID_H; gy++)
    for (let gx = 0; gx < GRID_W; gx++) {
      let dark = 0;
      let all = 0;
      for (let y = top + Math.floor((gy * h) / GRID_H); y < top + Math.ceil(((gy + 1) * h) / GRID_H); y++)
        for (let x = from + Math.floor((gx * w) / GRID_W); x < from + Math.ceil(((gx + 1) * w) / GRID_W); x++) {
          dark += image.dark[y * image.width + x]!;
          all++;
        }
      cells[gy * GRID_W + gx] = all && dark / all > 0.3 ? 1 : 0;
    }
  return cells;
}

/** A fixed source of numbers for the tests (mulberry32). */
export function seeded(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The attacker, with its reference glyphs drawn once. */
export function ocrAttacker(): (png: Buffer) => string {
  const random = seeded(1);
  const references = [...CAPTCHA_ALPHABET].map((ch) => {
    const image = darkPixels(renderCaptcha(ch, { hardened: false, random }));
    return { ch, cells: grid(image, segments(image, 1)[0]!) };
  });
  return (png) => {
    const image = darkPixels(png);
    return segments(image, CAPTCHA_LENGTH)
      .map((piece) => {
        const cells = grid(image, piece);
        let best = references[0]!;
        let bestDistance = Infinity;
        for (const reference of references) {
          let distance = 0;
          for (let i = 0; i < cells.length; i++) if (cells[i] !== reference.cells[i]) distance++;
          if (distance < bestDistance) [best, bestDistance] = [reference, distance];
        }
        return best.ch;
      })
      .join("");
  };
}
