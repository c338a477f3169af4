/**
 * This service's own fields in the modeler's properties panel, registered after the Camunda 7 provider (lower
 * priority runs later): one "This service" group with pickers over the tenant's agents, robots, forms, decisions,
 * processes and process roles, and a "Tool parameters" group on the activities of an ad-hoc sub-process. The pickers
 * write the attributes the engine reads (docs/ai.md, docs/agents.md, docs/robots.md): `pms:agent`, `camunda:type` +
 * `camunda:topic`, `camunda:formKey`, `camunda:decisionRef`, `calledElement`, `camunda:candidateGroups`; the Camunda
 * fields stay, showing the same values.
 */
import { Group } from "@bpmn-io/properties-panel";
import { is } from "bpmn-js/lib/util/ModelUtil";
import type { PickerData } from "./picker-data";
import { type Bo, PickerEntry, type PickerProps, RolesEntry, type Shape } from "./service-pickers";
import { toolParamsGroup } from "./tool-params-group";
import { t } from "../../i18n";

/** The lists, filled as each answer arrives (`loadPickerData`); the editor redraws the panel after each. */
export interface PickerStore {
  data: PickerData | null;
}

interface Injector {
  get<T>(name: string): T;
}
interface PropertiesPanel {
  registerProvider(priority: number, provider: unknown): void;
}
type PanelGroup = { id: string };

/** Implementations a picked agent or robot replaces (a service task runs one: the engine takes type first). */
const NO_OTHER_IMPLEMENTATION = {
  "camunda:class": undefined,
  "camunda:expression": undefined,
  "camunda:delegateExpression": undefined,
  "camunda:resultVariable": undefined,
};

const attr = (name: string) => (bo: Bo) => bo.get(name) as string | undefined;

type Picker = Omit<PickerProps, "element" | "data">;

/** The pickers an element gets, by its type. */
function pickersOf(bo: Bo): Picker[] {
  const out: Picker[] = [];
  const pick = (
    id: string,
    label: string,
    list: PickerProps["list"],
    get: Picker["get"],
    write: Picker["write"],
    hint?: string,
  ) => out.push({ id, label, list, get, write, hint });
  if (is(bo, "bpmn:AdHocSubProcess"))
    pick(
      "pmsLoopAgent",
      t("Agent loop: the agent"),
      "agents",
      attr("pms:agent"),
      (k) => ({ "pms:agent": k || undefined }),
      t("The agent calls this sub-process's activities as its tools; empty: no agent (or an attachment row)."),
    );
  if (is(bo, "bpmn:ServiceTask")) {
    pick("pmsAgent", t("Agent it runs"), "agents", attr("pms:agent"), (k) =>
      k
        ? { ...NO_OTHER_IMPLEMENTATION, "camunda:type": undefined, "camunda:topic": undefined, "pms:agent": k }
        : { "pms:agent": undefined },
    );
    pick(
      "pmsRobot",
      t("Robot (external task topic)"),
      "robots",
      (b) => (b.get("camunda:type") === "external" ? b.get("camunda:topic") : undefined),
      (k) =>
        k
          ? { ...NO_OTHER_IMPLEMENTATION, "pms:agent": undefined, "camunda:type": "external", "camunda:topic": k }
          : { "camunda:type": undefined, "camunda:topic": undefined },
    );
  }
  const formOwner = is(bo, "bpmn:UserTask") || (is(bo, "bpmn:StartEvent") && is(bo.$parent, "bpmn:Process"));
  if (formOwner)
    pick(
      "pmsForm",
      t("Form"),
      "forms",
      attr("camunda:formKey"),
      (k) => ({
        "camunda:formKey": k || undefined,
        "camunda:formRef": undefined,
        "camunda:formRefBinding": undefined,
        "camunda:formRefVersion": undefined,
      }),
      t("The process's forms (Modeler › the process › forms)."),
    );
  if (is(bo, "bpmn:BusinessRuleTask"))
    pick("pmsDecision", t("Decision"), "decisions", attr("camunda:decisionRef"), (k) => ({
      ...NO_OTHER_IMPLEMENTATION,
      "camunda:type": undefined,
      "camunda:topic": undefined,
      "camunda:decisionRef": k || undefined,
      "camunda:resultVariable": bo.get("camunda:resultVariable"),
    }));
  if (is(bo, "bpmn:CallActivity"))
    pick("pmsCalled", t("Called process"), "processes", attr("calledElement"), (k) => ({
      calledElement: k || undefined,
    }));
  return out;
}

function serviceGroup(element: Shape, store: PickerStore) {
  const bo = element.businessObject;
  const entries: Record<string, unknown>[] = pickersOf(bo).map((p) => ({
    ...p,
    element,
    data: store.data,
    component: PickerEntry,
    isEdited: (input: HTMLInputElement | null) => !!input?.value,
  }));
  if (is(bo, "bpmn:UserTask")) entries.push({ id: "pmsRoles", element, data: store.data, component: RolesEntry });
  if (!entries.length) return null;
  return { id: "PmsService", label: t("This service"), entries, component: Group, shouldOpen: true };
}

export function ServiceProvider(
  this: unknown,
  propertiesPanel: PropertiesPanel,
  injector: Injector,
  store: PickerStore,
) {
  propertiesPanel.registerProvider(400, {
    getGroups: (element: Shape) => (groups: PanelGroup[]) => {
      const ours = [serviceGroup(element, store), toolParamsGroup(element, injector)].filter(Boolean) as PanelGroup[];
      // Right after "General" (name and id), where the element's purpose is set.
      const at = groups.findIndex((g) => g.id === "general") + 1;
      return [...groups.slice(0, at), ...ours, ...groups.slice(at)];
    },
  });
}
ServiceProvider.$inject = ["propertiesPanel", "injector", "pmsPickers"];

/** The diagram-js module: the provider and the store it reads, given by the editor page. */
export const serviceProviderModule = (store: PickerStore) => ({
  __init__: ["pmsServiceProvider"],
  pmsServiceProvider: ["type", ServiceProvider],
  pmsPickers: ["value", store],
});

/** The `pms` namespace, so `pms:agent` is a known attribute (written with its xmlns, read back on import). */
export const pmsModdle = {
  name: "PMS",
  uri: "urn:pms:bpmn",
  prefix: "pms",
  xml: { tagAlias: "lowerCase" },
  types: [
    {
      name: "AgentHolder",
      isAbstract: true,
      extends: ["bpmn:Task", "bpmn:AdHocSubProcess"],
      properties: [{ name: "agent", isAttr: true, type: "String" }],
    },
  ],
};
