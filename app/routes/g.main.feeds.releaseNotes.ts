import type { LoaderFunctionArgs } from "@remix-run/node";
import { feedResponse } from "#app/lib/community.server.ts";

/** The release notes feed (RSS or Atom, ?lang=en|zh-CN&format=rss|atom; docs/decisions/040): public. */
export const loader = ({ request }: LoaderFunctionArgs) => feedResponse(request, "releaseNotes");
