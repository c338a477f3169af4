/** Portuguese (Brazil) for the console's admin pages: English text → translation. */
export const admin: Record<string, string> = {};
