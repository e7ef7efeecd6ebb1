import { expect } from "vitest";

/** The Response a loader, action or guard throws (Remix's way to answer early); fails if it resolves or throws another thing. */
export async function thrownResponse(promise: Promise<unknown>): Promise<Response> {
  const result = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(result).toBeInstanceOf(Response);
  return result as Response;
}
