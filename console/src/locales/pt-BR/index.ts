import { admin } from "./admin";
import { common } from "./common";
import { modeler } from "./modeler";
import { settings } from "./settings";
import { work } from "./work";

/**
 * Portuguese (Brazil): the console's English text → its translation. One catalog per area of the console so that
 * each area's strings stand together; a string appears in one area only (the catalog test checks it).
 */
export const AREAS: Record<string, Record<string, string>> = { common, work, settings, admin, modeler };
export const ptBR: Record<string, string> = Object.assign({}, ...Object.values(AREAS));
