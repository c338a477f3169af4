/** Portuguese (Brazil) for the console's modeler pages: English text → translation. */
export const modeler: Record<string, string> = {};
