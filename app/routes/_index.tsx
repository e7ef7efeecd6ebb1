import { redirect } from "@remix-run/node";

// SPEC §2: the root redirects to /g/main/index.
export const loader = () => redirect("/g/main/index");
