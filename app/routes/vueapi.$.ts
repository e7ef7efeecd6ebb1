import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleVueapi } from "../../backend/index";

// The /vueapi service mounted in this process (ARCHITECTURE): the one route that imports backend/.
export const action = ({ request }: ActionFunctionArgs) => handleVueapi(request);
export const loader = ({ request }: LoaderFunctionArgs) => handleVueapi(request);
