/**
 * Reads `read` every `everyMs` until `done` holds of what it answered, and answers that; after `ms`, fails
 * naming `what` and the last value. Wait for exactly what the test asserts next: a wait for one thing followed
 * by an assertion on another is a race.
 */
export async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms = 60_000,
  everyMs = 150,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value).slice(0, 3000)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
