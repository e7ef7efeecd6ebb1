import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleSandbox } from "../../backend/index";

// The embedded SANDBOX card payment provider's hosted checkout (docs/decisions/007): a third party of its
// own served by this process, like /vueapi (app/routes/vueapi.$.ts) the second route that imports backend/.
export const action = ({ request }: ActionFunctionArgs) => handleSandbox(request);
export const loader = ({ request }: LoaderFunctionArgs) => handleSandbox(request);
