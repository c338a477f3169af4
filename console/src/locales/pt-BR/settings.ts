import { settingsAccess } from "./settings-access";
import { settingsAi } from "./settings-ai";
import { settingsData } from "./settings-data";
import { settingsMail } from "./settings-mail";
import { settingsProcesses } from "./settings-processes";

/** Words several settings pages share, and the settings menu's. */
const shared: Record<string, string> = {
  Change: "Alterar",
  "Change {name}": "Alterar {name}",
  "Delete {name}": "Excluir {name}",
  "Save {name}": "Salvar {name}",
  "{name} saved.": "{name} salvo.",
  "{name} deleted.": "{name} excluído.",
  "{name} enabled.": "{name} ativado.",
  "{name} disabled.": "{name} desativado.",
  enabled: "ativado",
  disabled: "desativado",
  Enable: "Ativar",
  Disable: "Desativar",
  "Enable {name}": "Ativar {name}",
  "Disable {name}": "Desativar {name}",
  active: "ativo",
  inactive: "inativo",
  none: "nenhum",
  process: "processo",
  "{date} by": "{date} por",
  "the system": "o sistema",
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
