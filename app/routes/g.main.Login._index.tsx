import { redirect } from "@remix-run/node";

export const loader = () => redirect("/g/main/Login/Logins");
