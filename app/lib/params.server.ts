import { notFound } from "./api.server.ts";
import { positiveParam } from "./params.ts";

/** The id a page is about (e.g. ?appId=12), read as positiveParam reads it: without one the page is a 404. */
export function requiredId(url: URL, name: string): number {
  const id = positiveParam(url.searchParams.get(name));
  if (!id) throw notFound();
  return id;
}
