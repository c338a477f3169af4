// The size caps of one FEEL value (issue 28): a built-in that would build a string or a list over them fails the
// evaluation with an error naming the cap, before it builds it where its inputs tell the size (string join,
// concatenate, string of a list), after it where they do not.

export const FEEL_SIZE_LIMITS = {
  /** Characters of one string (10 MiB of text in UTF-16 code units). */
  stringChars: 10 * 1024 * 1024,
  /** Elements of one list. */
  listItems: 1_000_000,
};

export class FeelSizeLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FeelSizeLimitError";
  }
}

export function assertStringSize(chars: number, what: string): void {
  if (chars > FEEL_SIZE_LIMITS.stringChars)
    throw new FeelSizeLimitError(
      `${what} would build a string of more than ${FEEL_SIZE_LIMITS.stringChars.toLocaleString("en")} characters, the size limit of a FEEL string`,
    );
}

export function assertListSize(items: number, what: string): void {
  if (items > FEEL_SIZE_LIMITS.listItems)
    throw new FeelSizeLimitError(
      `${what} would build a list of more than ${FEEL_SIZE_LIMITS.listItems.toLocaleString("en")} elements, the size limit of a FEEL list`,
    );
}

/**
 * The characters a value takes written out (strings by length, every other leaf and each element a few), counted
 * only up to `stop`: the walk ends as soon as the count passes it, so it costs at most the cap, never the value.
 */
export function writtenSize(value: unknown, stop = FEEL_SIZE_LIMITS.stringChars): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length && n <= stop) {
    const v = stack.pop();
    if (typeof v === "string") n += v.length + 2;
    else if (Array.isArray(v)) {
      n += 2 + v.length;
      for (let i = 0; i < v.length && stack.length + n <= stop; i++) stack.push(v[i]);
    } else if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
      for (const [k, x] of Object.entries(v)) {
        n += k.length + 2;
        stack.push(x);
        if (n > stop) break;
      }
    } else n += 8;
  }
  return n;
}
