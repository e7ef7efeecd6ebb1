import { createCookie } from "@remix-run/node";
import QRCode from "qrcode";
import { DDC_VIEW_PATH } from "#contract/ddc-codes.ts";
import { notFound } from "./api.server.ts";
import { getEnv } from "./env.server.ts";
import { positiveId } from "./params.ts";

/*
 * The DDC pages' server work (docs/decisions/045): the `ddcId` parameter, the passes a browser earned with a
 * DDC's QR-code password (kept in a signed cookie, newest ten, 30 days: the backend checks each pass again),
 * the ddc-view URL of a DDC and its QR code in SVG.
 */

/** `?ddcId=` of the request, or a 404. */
export function ddcIdParam(request: Request): number {
  const id = positiveId(new URL(request.url).searchParams.get("ddcId"));
  if (!id) throw notFound();
  return id;
}

let passCookie: ReturnType<typeof createCookie> | undefined;
function cookie() {
  const env = getEnv();
  passCookie ??= createCookie("__ddc_pass", {
    path: "/g/main",
    httpOnly: true,
    sameSite: "lax",
    secure: env.cookieSecure,
    secrets: env.sessionSecrets,
    maxAge: 30 * 86_400,
  });
  return passCookie;
}

type Passes = Record<string, string>;
const MAX_PASSES = 10;

async function passesOf(request: Request): Promise<Passes> {
  const value = (await cookie()
    .parse(request.headers.get("Cookie"))
    .catch(() => null)) as unknown;
  return value && typeof value === "object" ? (value as Passes) : {};
}

/** The pass this browser holds for the DDC, if any. */
export async function passFor(request: Request, ddcId: number): Promise<string | undefined> {
  const pass = (await passesOf(request))[String(ddcId)];
  return typeof pass === "string" ? pass : undefined;
}

/** The Set-Cookie that remembers `pass` for the DDC (the oldest passes beyond ten are dropped). */
export async function rememberPass(request: Request, ddcId: number, pass: string): Promise<string> {
  const passes = await passesOf(request);
  delete passes[String(ddcId)];
  const kept = Object.entries(passes).slice(-(MAX_PASSES - 1));
  return cookie().serialize(Object.fromEntries([...kept, [String(ddcId), pass]]));
}

/** The absolute ddc-view URL of a DDC on this site (what the QR code leads to). */
export function ddcViewUrl(request: Request, ddcId: number): string {
  return `${new URL(request.url).origin}${DDC_VIEW_PATH}?ddcId=${ddcId}`;
}

/** The QR code of `text` as an SVG document. */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}
