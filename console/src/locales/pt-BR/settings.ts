import { settingsAccess } from "./settings-access";
import { settingsAi } from "./settings-ai";
import { settingsData } from "./settings-data";
import { settingsMail } from "./settings-mail";
import { settingsProcesses } from "./settings-processes";

/** Words several settings pages share, and the settings menu's. */
const shared: Record<string, string> = {
  "Save {name}": "Salvar {name}",
  inactive: "inativo",
  process: "processo",
  Access: "Acesso",
  AI: "IA",
  Data: "Dados",
  "an Admin": "um Administrador",
  "a Modeler": "um Modelador",
  "a Manager": "um Gestor",
  "{list} or {last}": "{list} ou {last}",
  "Your role in this company reaches no settings.": "Seu papel nesta empresa não alcança nenhuma configuração.",
  "Only {who} may open this page.": "Somente {who} pode abrir esta página.",
  "Company settings": "Configurações da empresa",
};

/**
 * Portuguese (Brazil) for the console's settings pages: English text → translation, one file per group of the
 * settings menu (each text in one file only).
 */
export const settings: Record<string, string> = {
  ...shared,
  ...settingsAccess,
  ...settingsProcesses,
  ...settingsData,
  ...settingsAi,
  ...settingsMail,
};
