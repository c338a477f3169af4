import { api } from "../../api";
import { t } from "../../i18n";

export interface Deployed {
  definitions: { key: string; version: number; name: string; type: string }[];
  warnings: string[];
}
interface DeployedDecisions {
  decisions: { key: string; name: string; version: number }[];
}

/**
 * Deploys one model file: a .dmn goes to POST /a/decisions, BPMN and CMMN to POST /a/definitions/deploy (the server
 * tells the two apart by content). Answers one line per deployed model for the page to show.
 */
export async function deployFile(file: File): Promise<string[]> {
  const body = new FormData();
  body.append("file", file, file.name);
  if (/\.dmn(\.xml)?$/i.test(file.name)) {
    const d = await api<DeployedDecisions>("POST", "/a/decisions", body);
    return d.decisions.map((x) =>
      t("Decision {key} deployed as version {version}.", { key: x.key, version: x.version }),
    );
  }
  const d = await api<Deployed>("POST", "/a/definitions/deploy", body);
  return [
    ...d.definitions.map((x) =>
      t("{type} {key} deployed as version {version}.", { type: x.type, key: x.key, version: x.version }),
    ),
    ...d.warnings,
  ];
}

/** Deploys XML drawn in the modeler as a file named after the process. */
export const deployXml = (key: string, xml: string) =>
  deployFile(new File([xml], `${key}.bpmn`, { type: "application/xml" }));
