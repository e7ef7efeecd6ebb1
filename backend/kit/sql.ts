/** A user's text inside a LIKE pattern: its `%`, `_` and `\` match themselves. */
export const escapeLike = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);
