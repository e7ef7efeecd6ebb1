import { TextPage } from "~/components/TextPage";
import { pageTitle } from "~/lib/meta";

export const handle = { i18n: ["pages"] };
export const meta = pageTitle("agreement");

export default function Page() {
  return <TextPage page="agreement" />;
}
