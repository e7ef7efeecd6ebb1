import type * as z from "zod";
import { certificationDownloads } from "./certification.ts";
import { communityDownloads } from "./community.ts";
import { ddcDownloads } from "./ddc.ts";
import type { DownloadSpec } from "./download-spec.ts";
import { marketDownloads } from "./market.ts";
import { participationDownloads } from "./participation.ts";
import { serviceWizardDownloads } from "./service-wizard.ts";
import { storeDownloads } from "./store.ts";
import { supportDownloads } from "./support.ts";

export type { DownloadSpec } from "./download-spec.ts";

/**
 * Files leave the backend as bytes, never as base64 in JSON (docs/decisions/053): each kind below is
 * `POST /vueapi/download/<kind>`; its domain's contract file declares it, this module merges them. The
 * portal's request layer calls them with `vueapiDownload` (app/lib/vueapi.server.ts), so that VUEAPI_URL
 * still works.
 */
export const downloads = {
  ...supportDownloads,
  ...ddcDownloads,
  ...communityDownloads,
  ...storeDownloads,
  ...serviceWizardDownloads,
  ...marketDownloads,
  ...participationDownloads,
  ...certificationDownloads,
} satisfies Record<string, DownloadSpec>;

export type DownloadKind = keyof typeof downloads;
export type DownloadPayload<K extends DownloadKind> = z.input<(typeof downloads)[K]["payload"]>;

export const DOWNLOAD_PATH_PREFIX = "/download/";
export const downloadPath = (kind: DownloadKind) => `${DOWNLOAD_PATH_PREFIX}${kind}`;
export const isDownloadKind = (v: unknown): v is DownloadKind =>
  typeof v === "string" && Object.prototype.hasOwnProperty.call(downloads, v);
