import { startServices } from "~/lib/transport.server";

/** Readiness: answers once the backend has migrated and seeded. */
export async function loader() {
  await startServices();
  return new Response("ok", { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
}
