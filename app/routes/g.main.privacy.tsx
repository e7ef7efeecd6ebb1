import { TextPage } from "~/components/TextPage";
import { pageTitle } from "~/lib/meta";

export const handle = { i18n: ["pages"] };
export const meta = pageTitle("privacy");

export default function Page() {
  return <TextPage page="privacy" />;
}
