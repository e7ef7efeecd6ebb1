import { Outlet } from "@remix-run/react";
import { ErrorView } from "#app/components/ErrorView.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["auth"] };
// A loader of its own, so that the clientLoader only runs on client navigations (Remix hydrates a route's
// clientLoader when the route has no server loader, and would not render it on the server).
export const loader = () => null;
export const clientLoader = withNamespaces(handle);

/** SPEC §2 Login with its children Logins, Forget, forgetTwo, SetPassWord. */
export default function LoginLayout() {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10">
      <Outlet />
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorView />;
}
