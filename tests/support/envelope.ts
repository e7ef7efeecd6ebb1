import { expect } from "vitest";

/** What a /vueapi path answers (backend/http/envelope.ts): code 0 with data, or a message key. */
export type Reply<T = any> = { code: number; message: string; data: T };

/** The data of a reply that must succeed (code 0); a failure names `label` (the path) and the whole reply. */
export function dataOf<T = any>(label: string, reply: { code: number; data?: unknown }): T {
  expect(reply.code, `${label}: ${JSON.stringify(reply).slice(0, 2000)}`).toBe(0);
  return reply.data as T;
}

/**
 * A test file's `ok` from its own way of calling a path (over HTTP, in-process, as some user): the same
 * arguments, answering the data of a reply that must succeed.
 */
export function okVia<A extends unknown[]>(send: (p: string, ...rest: A) => Promise<{ code: number; data?: unknown }>) {
  return async <T = any>(p: string, ...rest: A): Promise<T> => dataOf<T>(p, await send(p, ...rest));
}
