import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleVueapi } from "#backend/index.ts";

// The /vueapi service mounted in this process (ARCHITECTURE), for callers over HTTP: the backend counts
// their limits by the address the server entry saw (context.clientAddress), never by a header they sent.
export const action = ({ request, context }: ActionFunctionArgs) =>
  handleVueapi(request, { clientAddress: context.clientAddress ?? null });
export const loader = ({ request, context }: LoaderFunctionArgs) =>
  handleVueapi(request, { clientAddress: context.clientAddress ?? null });
