import type { MetaFunction } from "@remix-run/node";
import { TextPage } from "~/components/TextPage";

export const handle = { i18n: ["pages"] };
export const meta: MetaFunction = () => [{ title: "BSN Portal" }];

export default function Page() {
  return <TextPage page="documentation" />;
}
