/** Portuguese (Brazil) for the console's settings pages: English text → translation. */
export const settings: Record<string, string> = {};
