import { servicesHealth, startServices } from "#app/lib/transport.server.ts";

/**
 * Readiness: answers once the backend has migrated and seeded, with what its domains report (each chain's
 * height, time of its last block and pending transactions).
 */
export async function loader() {
  await startServices();
  return new Response(JSON.stringify({ status: "ok", ...(await servicesHealth()) }), {
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}
