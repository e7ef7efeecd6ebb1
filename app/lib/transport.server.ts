import { handleVueapi, startBackend } from "../../backend/index";
import { getEnv } from "./env.server";

/**
 * How the request layer reaches the /vueapi service (docs/decisions/001). With VUEAPI_URL unset the
 * backend runs in this process and the same Request object is handed to it without a socket; with
 * VUEAPI_URL set, it goes over the network with fetch. Either way it is the same protocol.
 */
export type Transport = (request: Request) => Promise<Response>;

export const IN_PROCESS_ORIGIN = "http://in-process.invalid";

export function vueapiBase(): string {
  const env = getEnv();
  return env.VUEAPI_URL ? env.VUEAPI_URL.replace(/\/+$/, "") : `${IN_PROCESS_ORIGIN}/vueapi`;
}

export const defaultTransport: Transport = (request) =>
  getEnv().VUEAPI_URL ? fetch(request) : handleVueapi(request);

/** Start what this process serves: the embedded backend, unless the portal talks to another server. */
export async function startServices() {
  const env = getEnv();
  if (!env.VUEAPI_URL) await startBackend();
}
