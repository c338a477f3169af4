import { ApiError, api, hasRole } from "../../api";
import { t } from "../../i18n";

/** One choice of a picker: the key written into the diagram, and a name to recognise it by. */
export interface Choice {
  key: string;
  name: string;
}

/** What the properties panel's pickers offer, loaded once when the modeler opens. */
export interface PickerData {
  agents: Choice[];
  robots: Choice[];
  decisions: Choice[];
  processes: Choice[];
  forms: Choice[];
  roles: Choice[];
  /** Lists still on their way: their pickers say they are loading (and take typed keys meanwhile). */
  pending: Set<ListName>;
  /** A list this role may not read (robots are Admin-only): its picker says so and takes a typed key. */
  refused: Set<ListName>;
  /** Lists that could not be loaded, with the reason; shown above the editor, never thrown. */
  failures: string[];
}

export type ListName = "agents" | "robots" | "decisions" | "processes" | "forms" | "roles";

const enc = encodeURIComponent;
type Named = { key: string; name: string; processKey?: string | null; type?: string };

/**
 * Reads every list the pickers offer, each on its own, into `data` (returned at once, filled as the answers come):
 * `changed` is called after each one, so a slow list delays only its own picker. A list that fails (or that the
 * user's role may not read, 403) leaves its picker empty and the others filled. Agents and roles of another process
 * are left out: the engine would refuse them there (AGENT_NOT_IN_PROCESS; a process role counts only in its process).
 */
export function loadPickerData(processKey: string, changed: () => void): PickerData {
  const data: PickerData = {
    agents: [],
    robots: [],
    decisions: [],
    processes: [],
    forms: [],
    roles: [],
    pending: new Set(),
    refused: new Set(),
    failures: [],
  };
  const inProcess = (r: Named) => !r.processKey || r.processKey === processKey;
  // Each list with the sentence that reports its failure ({reason}: the error), in the reader's language.
  const lists: [ListName, string, string, (r: Named) => boolean][] = [
    ["agents", t("The agents could not be loaded ({reason}); type their keys instead."), "/a/agents", inProcess],
    ["robots", t("The robots could not be loaded ({reason}); type their keys instead."), "/a/robots", () => true],
    [
      "decisions",
      t("The decisions could not be loaded ({reason}); type their keys instead."),
      "/a/decisions",
      () => true,
    ],
    [
      "processes",
      t("The processes could not be loaded ({reason}); type their keys instead."),
      "/a/definitions",
      (r) => !r.type || r.type === "BPMN",
    ],
    [
      "forms",
      t("The forms of this process could not be loaded ({reason}); type their keys instead."),
      `/a/definitions/${enc(processKey)}/forms`,
      () => true,
    ],
    [
      "roles",
      t("The process roles could not be loaded ({reason}); type their keys instead."),
      "/a/process-roles",
      inProcess,
    ],
  ];
  // Robots are listed to Admins only: a Modeler is not sent to be refused (the browser would log the 403).
  if (!hasRole("ADMIN")) data.refused.add("robots");
  for (const [name, failed, path, keep] of lists) {
    if (data.refused.has(name)) continue;
    data.pending.add(name);
    (async () => {
      try {
        const rows = await api<Named[]>("GET", path);
        const seen = new Set<string>();
        data[name] = rows
          .filter((r) => keep(r) && !seen.has(r.key) && seen.add(r.key))
          .map((r) => ({ key: r.key, name: r.name || r.key }))
          .sort((a, b) => a.name.localeCompare(b.name));
      } catch (e) {
        if (e instanceof ApiError && e.status === 403) data.refused.add(name);
        else data.failures.push(failed.replace("{reason}", (e as Error).message));
      }
      data.pending.delete(name);
      changed();
    })();
  }
  return data;
}
