import { randomInt } from "node:crypto";
import { PNG } from "pngjs";
import svgCaptcha from "svg-captcha";

/**
 * The image captcha (docs/decisions/061), drawn here as a PNG rather than an SVG whose glyph paths a script can
 * read one by one. Hardened against OCR: every glyph has its own size, rotation, slant and weight; neighbours
 * overlap by a varying amount, so no blank column separates them; the whole line is warped; strokes in the
 * text's own colour cross it; specks in that colour and a noisy background finish it. `hardened: false` draws
 * the plain style (upright glyphs apart, noise only in other colours) that the OCR regression test proves its
 * attacker on (tests/unit/captcha-ocr.test.ts).
 */

/** No 0/O, 1/I/l, nor pairs that the font draws alike (B/8, S/5, Z/2). Answers are compared in lower case. */
export const CAPTCHA_ALPHABET = "ACDEFGHJKMNPRTUVWXY34679";
export const CAPTCHA_LENGTH = 4;
export const CAPTCHA_WIDTH = 160;
export const CAPTCHA_HEIGHT = 56;

/** A source of numbers in [0, 1); crypto-backed by default, seeded in tests. */
export type Random = () => number;

export const cryptoRandom: Random = () => randomInt(0, 2 ** 32) / 2 ** 32;

type PathCommand = { type: string; x?: number; y?: number; x1?: number; y1?: number; x2?: number; y2?: number };
type Font = {
  charToGlyph(ch: string): {
    advanceWidth?: number;
    getPath(x: number, y: number, size: number): { commands: PathCommand[] };
  };
};
const font = (svgCaptcha as unknown as { options: { font: Font } }).options.font;

type Point = [number, number];
type Rgb = [number, number, number];

/** An RGB canvas with coverage-blended fills. */
class Canvas {
  readonly pixels: Float32Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = new Float32Array(width * height * 3);
  }

  fill(colour: (x: number, y: number) => Rgb) {
    for (let y = 0; y < this.height; y++) for (let x = 0; x < this.width; x++) this.blend(x, y, colour(x, y), 1);
  }

  blend(x: number, y: number, [r, g, b]: Rgb, alpha: number) {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height || alpha <= 0) return;
    const i = (y * this.width + x) * 3;
    const a = Math.min(1, alpha);
    this.pixels[i] = this.pixels[i]! * (1 - a) + r * a;
    this.pixels[i + 1] = this.pixels[i + 1]! * (1 - a) + g * a;
    this.pixels[i + 2] = this.pixels[i + 2]! * (1 - a) + b * a;
  }

  /** Fills closed polygons (non-zero rule), 4 sub-rows per pixel row, fractional coverage at span ends. */
  fillPolygons(polygons: Point[][], colour: Rgb) {
    const SUB = 4;
    const rows = this.height * SUB;
    // Each edge listed under the first sub-row it crosses: [x at that row, x step per sub-row, last sub-row, dir].
    const starts: number[][] = Array.from({ length: rows }, () => []);
    for (const polygon of polygons)
      for (let i = 0; i < polygon.length; i++) {
        const [x0, y0] = polygon[i]!;
        const [x1, y1] = polygon[(i + 1) % polygon.length]!;
        if (y0 === y1) continue;
        const [ax, ay, bx, by, dir] = y0 < y1 ? [x0, y0, x1, y1, 1] : [x1, y1, x0, y0, -1];
        const first = Math.max(0, Math.ceil(ay * SUB - 0.5));
        const last = Math.min(rows - 1, Math.ceil(by * SUB - 0.5) - 1);
        if (first > last) continue;
        const slope = (bx - ax) / (by - ay);
        starts[first]!.push(ax + ((first + 0.5) / SUB - ay) * slope, slope / SUB, last, dir);
      }
    const coverage = new Float32Array(this.width * this.height);
    let active: number[] = [];
    for (let sy = 0; sy < rows; sy++) {
      active = active.concat(starts[sy]!);
      if (active.length === 0) continue;
      const crossings: [number, number][] = [];
      const still: number[] = [];
      for (let e = 0; e < active.length; e += 4) {
        crossings.push([active[e]!, active[e + 3]!]);
        if (active[e + 2]! > sy)
          still.push(active[e]! + active[e + 1]!, active[e + 1]!, active[e + 2]!, active[e + 3]!);
      }
      active = still;
      crossings.sort((a, b) => a[0] - b[0]);
      let winding = 0;
      const row = Math.floor(sy / SUB) * this.width;
      for (let i = 0; i < crossings.length - 1; i++) {
        winding += crossings[i]![1];
        if (winding === 0) continue;
        const from = Math.max(0, crossings[i]![0]);
        const to = Math.min(this.width, crossings[i + 1]![0]);
        for (let x = Math.floor(from); x < to; x++) {
          const covered = Math.min(to, x + 1) - Math.max(from, x);
          if (covered > 0) coverage[row + x] = coverage[row + x]! + covered / SUB;
        }
      }
    }
    for (let p = 0; p < coverage.length; p++)
      if (coverage[p]! > 0) this.blend(p % this.width, Math.floor(p / this.width), colour, coverage[p]!);
  }

  /** Strokes of `width` along polylines, as one fill of quads (one orientation, so they join under non-zero). */
  stroke(lines: Point[][], width: number, colour: Rgb) {
    const quads: Point[][] = [];
    for (const points of lines)
      for (let i = 0; i < points.length - 1; i++) {
        const [x0, y0] = points[i]!;
        const [x1, y1] = points[i + 1]!;
        const length = Math.hypot(x1 - x0, y1 - y0) || 1;
        const nx = (-(y1 - y0) / length) * (width / 2);
        const ny = ((x1 - x0) / length) * (width / 2);
        quads.push([
          [x0 + nx, y0 + ny],
          [x1 + nx, y1 + ny],
          [x1 - nx, y1 - ny],
          [x0 - nx, y0 - ny],
        ]);
      }
    this.fillPolygons(quads, colour);
  }

  png(): Buffer {
    const rgba = Buffer.alloc(this.width * this.height * 4);
    for (let p = 0; p < this.width * this.height; p++) {
      for (let c = 0; c < 3; c++) rgba[p * 4 + c] = Math.max(0, Math.min(255, Math.round(this.pixels[p * 3 + c]!)));
      rgba[p * 4 + 3] = 255;
    }
    // 8-bit RGB, no alpha: the smallest image of the three colours' noise.
    return PNG.sync.write(Object.assign(new PNG({ width: this.width, height: this.height }), { data: rgba }), {
      colorType: 2,
    });
  }
}

/** A glyph's outline as polygons (curves flattened), in font pixels with the origin on the baseline. */
function outline(ch: string, size: number): { polygons: Point[][]; advance: number } {
  const glyph = font.charToGlyph(ch);
  const polygons: Point[][] = [];
  let current: Point[] = [];
  let at: Point = [0, 0];
  for (const c of glyph.getPath(0, 0, size).commands) {
    if (c.type === "M") {
      if (current.length) polygons.push(current);
      current = [(at = [c.x!, c.y!])];
    } else if (c.type === "L") current.push((at = [c.x!, c.y!]));
    else if (c.type === "Q" || c.type === "C") {
      for (let s = 1; s <= 8; s++) {
        const t = s / 8;
        const u = 1 - t;
        current.push(
          c.type === "Q"
            ? [u * u * at[0] + 2 * u * t * c.x1! + t * t * c.x!, u * u * at[1] + 2 * u * t * c.y1! + t * t * c.y!]
            : [
                u ** 3 * at[0] + 3 * u * u * t * c.x1! + 3 * u * t * t * c.x2! + t ** 3 * c.x!,
                u ** 3 * at[1] + 3 * u * u * t * c.y1! + 3 * u * t * t * c.y2! + t ** 3 * c.y!,
              ],
        );
      }
      at = [c.x!, c.y!];
    } else if (c.type === "Z" && current.length) {
      polygons.push(current);
      current = [];
    }
  }
  if (current.length) polygons.push(current);
  const unitsPerEm = (font as unknown as { unitsPerEm: number }).unitsPerEm;
  return { polygons, advance: ((glyph.advanceWidth ?? unitsPerEm / 2) * size) / unitsPerEm };
}

const between = (random: Random, min: number, max: number) => min + random() * (max - min);
const pick = <T>(random: Random, items: readonly T[]) => items[Math.floor(random() * items.length)]!;

/** A random answer from the alphabet. */
export function captchaText(random: Random = cryptoRandom, length = CAPTCHA_LENGTH): string {
  return Array.from({ length }, () => pick(random, [...CAPTCHA_ALPHABET])).join("");
}

/** Draws `text`; hardened unless told otherwise (the plain style exists for the OCR test). */
export function renderCaptcha(text: string, options: { hardened?: boolean; random?: Random } = {}): Buffer {
  const hardened = options.hardened ?? true;
  const random = options.random ?? cryptoRandom;
  const canvas = new Canvas(CAPTCHA_WIDTH, CAPTCHA_HEIGHT);
  const base: Rgb = [238 + random() * 12, 240 + random() * 10, 246 + random() * 8];
  canvas.fill(() => (hardened ? (base.map((v) => v - random() * 40) as Rgb) : base));

  // The text's colour: dark, one hue for the whole image so colour does not separate glyphs from strokes.
  const ink: Rgb = hardened
    ? ([between(random, 20, 90), between(random, 20, 90), between(random, 40, 110)] as Rgb)
    : [30, 40, 90];
  const shade = (): Rgb => (hardened ? (ink.map((v) => v + between(random, -15, 15)) as Rgb) : ink);

  if (!hardened)
    // The plain style's noise: a couple of pale lines, which a threshold removes.
    for (let i = 0; i < 2; i++)
      canvas.stroke(
        [
          [
            [0, between(random, 5, 50)],
            [CAPTCHA_WIDTH, between(random, 5, 50)],
          ],
        ],
        1.5,
        [170, 190, 220],
      );

  const phase = random() * Math.PI * 2;
  const amplitude = hardened ? between(random, 3, 5) : 0;
  const warp = ([x, y]: Point): Point => [
    x + (hardened ? 1.5 * Math.sin(y / 6 + phase) : 0),
    y + amplitude * Math.sin((x / CAPTCHA_WIDTH) * Math.PI * 2 + phase),
  ];

  let x = hardened ? between(random, 4, 12) : 4;
  for (const ch of text) {
    const size = hardened ? between(random, 50, 62) : 48;
    const { polygons, advance } = outline(ch, size);
    const angle = hardened ? between(random, -0.35, 0.35) : 0;
    const slant = hardened ? between(random, -0.3, 0.3) : 0;
    const bold = hardened ? between(random, 1, 2.2) : 1.5;
    const baseline = hardened ? between(random, 40, 48) : 44;
    const cx = advance / 2;
    const cy = -size / 3;
    const place = ([px, py]: Point): Point => {
      const sx = px - cx + slant * (py - cy);
      const sy = py - cy;
      return warp([
        x + cx + sx * Math.cos(angle) - sy * Math.sin(angle),
        baseline + cy + sx * Math.sin(angle) + sy * Math.cos(angle),
      ]);
    };
    const placed = polygons.map((polygon) => polygon.map(place));
    const colour = shade();
    canvas.fillPolygons(placed, colour);
    // Weight: the outline stroked again, so some glyphs are bolder than others.
    canvas.stroke(
      placed.map((polygon) => [...polygon, polygon[0]!]),
      bold,
      colour,
    );
    // Hardened glyphs overlap their neighbour by a varying amount: no blank column between them.
    x += hardened ? advance * between(random, 0.62, 0.85) : advance + 5;
  }

  if (hardened) {
    // Strokes in the text's colour across the whole line, each a wavy curve through the glyphs.
    const strokes = 2 + Math.floor(random() * 2);
    for (let s = 0; s < strokes; s++) {
      const y0 = between(random, 16, 44);
      const tilt = between(random, -0.12, 0.12);
      const wave = between(random, 2, 6);
      const freq = between(random, 0.03, 0.07);
      const offset = random() * 10;
      const points: Point[] = [];
      for (let px = 0; px <= CAPTCHA_WIDTH; px += 4)
        points.push([px, y0 + tilt * (px - CAPTCHA_WIDTH / 2) + wave * Math.sin(px * freq + offset)]);
      canvas.stroke([points], between(random, 1.6, 2.6), shade());
    }
    // Specks in the text's colour.
    for (let i = 0; i < 120; i++) {
      const px = Math.floor(random() * CAPTCHA_WIDTH);
      const py = Math.floor(random() * CAPTCHA_HEIGHT);
      canvas.blend(px, py, shade(), 1);
      if (random() < 0.5) canvas.blend(px + 1, py, shade(), 1);
    }
  }
  return canvas.png();
}

/** The image as a data: URI for an <img>, so the page needs no second request. */
export function captchaDataUri(png: Buffer): string {
  return `data:image/png;base64,${png.toString("base64")}`;
}
