import { Outlet } from "@remix-run/react";
import { ErrorView } from "#app/components/ErrorView.tsx";

export const handle = { i18n: ["auth"] };

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
