import { TextPage } from "~/components/TextPage";
import { pageTitle } from "~/lib/meta";

export const handle = { i18n: ["pages"] };
export const meta = pageTitle("contact");

export default function Page() {
  return <TextPage page="contact" />;
}
