import { TextPage } from "#app/components/TextPage.tsx";
import { pageTitle } from "#app/lib/meta.ts";

export const handle = { i18n: ["pages"] };
export const meta = pageTitle("privacy");

export default function Page() {
  return <TextPage page="privacy" />;
}
