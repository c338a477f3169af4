/** Portuguese (Brazil) for the console's work pages: English text → translation. */
export const work: Record<string, string> = {};
