import { CLIENT_ADDRESS_HEADER } from "#contract/envelope.ts";
import {
  backendHealth,
  callVueapiInProcess,
  handleEndpoint,
  handleVueapiInProcess,
  startBackend,
} from "#backend/index.ts";
import { getEnv } from "./env.server.ts";

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

/**
 * Over HTTP the end user's address travels as X-Forwarded-For, which the other server believes only when its
 * TRUST_PROXY names this portal's address; the in-process header would be overwritten there anyway
 * (docs/decisions/021).
 */
export function overHttp(request: Request): Request {
  const address = request.headers.get(CLIENT_ADDRESS_HEADER);
  const headers = new Headers(request.headers);
  headers.delete(CLIENT_ADDRESS_HEADER);
  if (address) headers.set("X-Forwarded-For", address);
  return new Request(request, { headers });
}

export const defaultTransport: Transport = (request) =>
  getEnv().VUEAPI_URL ? fetch(overHttp(request)) : handleVueapiInProcess(request);

/**
 * A JSON call to the backend in this process without a Request or a Response (docs/decisions/114): the path,
 * the request layer's headers and JSON text in, the status and the envelope's JSON text out; null when
 * VUEAPI_URL names another server (then every call is a Request over the network).
 */
export function inProcessJsonCall(): typeof callVueapiInProcess | null {
  return getEnv().VUEAPI_URL ? null : callVueapiInProcess;
}

/**
 * The origin of the backend's endpoints outside /vueapi (the IPFS gateways, docs/decisions/039): VUEAPI_URL's
 * origin when the backend is another server, else the in-process origin.
 */
export function endpointBase(): string {
  const env = getEnv();
  return env.VUEAPI_URL ? new URL(env.VUEAPI_URL).origin : IN_PROCESS_ORIGIN;
}

/** A request to one of those endpoints: over the network, or handed to the backend in this process. */
export const endpointTransport: Transport = (request) =>
  getEnv().VUEAPI_URL ? fetch(overHttp(request)) : handleEndpoint(request);

/** Start what this process serves: the embedded backend, unless the portal talks to another server. */
export async function startServices() {
  const env = getEnv();
  if (!env.VUEAPI_URL) await startBackend();
}

/** What the backend in this process reports to /healthz; nothing when the portal talks to another server. */
export async function servicesHealth(): Promise<Record<string, unknown>> {
  return getEnv().VUEAPI_URL ? {} : backendHealth();
}
