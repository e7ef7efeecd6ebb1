import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the page being rendered (docs/decisions/016). The server entry
 * (server/app.js) makes a fresh one per response, sends it in the CSP header and hands it to Remix as
 * `context.cspNonce`; app/entry.server.tsx provides it here, so that the inline scripts of root.tsx carry
 * it. In the browser there is none: the attribute only matters in the server's HTML.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}

declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    /** Set by server/app.js for every request. */
    cspNonce?: string;
    /**
     * The end user's address as server/app.js saw it (the socket, or X-Forwarded-For under TRUST_PROXY):
     * what the /vueapi route hands the backend (docs/decisions/021).
     */
    clientAddress?: string;
  }
}
