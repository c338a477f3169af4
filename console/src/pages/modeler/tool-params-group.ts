import {
  ListGroup,
  SelectEntry,
  TextFieldEntry,
  isSelectEntryEdited,
  isTextFieldEntryEdited,
} from "@bpmn-io/properties-panel";
import { useService } from "bpmn-js-properties-panel";
import { is } from "bpmn-js/lib/util/ModelUtil";
import { html } from "../../html";
import type { Bo, Shape } from "./service-pickers";
import { TOOL_PARAM_TYPES, type ToolParam, formatToolParam, isParamName, parseToolParam } from "./tool-param";
import { t } from "../../i18n";

interface CommandStack {
  execute(command: string, context: unknown): void;
}
interface BpmnFactory {
  create(type: string, attrs?: Record<string, unknown>): Bo;
}
interface Injector {
  get<T>(name: string): T;
}

const update = (element: Shape, moddleElement: Bo, properties: Record<string, unknown>) => ({
  cmd: "element.updateModdleProperties",
  context: { element, moddleElement, properties },
});

const inputOutputOf = (bo: Bo): Bo | undefined =>
  (bo.extensionElements?.get("values") ?? []).find((v: Bo) => is(v, "camunda:InputOutput"));

/** The activity's `camunda:inputParameter`s that declare a tool parameter, each with its own position. */
function paramsOf(bo: Bo): { param: Bo; value: ToolParam }[] {
  const io = inputOutputOf(bo);
  const out: { param: Bo; value: ToolParam }[] = [];
  for (const param of io?.get("inputParameters") ?? []) {
    const parsed = parseToolParam(typeof param.value === "string" ? param.value : undefined);
    if (parsed)
      out.push({
        param,
        value: { name: param.name ?? parsed.ref, description: parsed.description, type: parsed.type },
      });
  }
  return out;
}

/** One row's field: the parameter rewritten (name, description or type) as one undoable change. */
function ParamField(props: { element: Shape; id: string; param: Bo; field: keyof ToolParam; label: string }) {
  const commandStack = useService<CommandStack>("commandStack");
  const debounce = useService<(f: unknown) => unknown>("debounceInput");
  const current = (): ToolParam => {
    const p = parseToolParam(props.param.value) ?? { ref: props.param.name, description: "", type: "string" };
    return { name: props.param.name ?? p.ref, description: p.description, type: p.type };
  };
  const setValue = (v: string) => {
    const next = { ...current(), [props.field]: (v ?? "").trim() };
    if (props.field === "name" && !isParamName(next.name)) return;
    commandStack.execute(
      "element.updateModdleProperties",
      update(props.element, props.param, { name: next.name, value: formatToolParam(next) }).context,
    );
  };
  const common = {
    element: props.element,
    id: props.id,
    label: props.label,
    getValue: () => current()[props.field],
    setValue,
  };
  if (props.field === "type")
    return html`<${SelectEntry} ...${common} getOptions=${() => TOOL_PARAM_TYPES.map((t) => ({ value: t, label: t }))} />`;
  return html`<${TextFieldEntry} ...${common} debounce=${debounce}
    validate=${props.field === "name" ? (v: string) => (isParamName((v ?? "").trim()) ? null : t("A letter or _, then letters, digits or _")) : undefined} />`;
}

/**
 * "Tool parameters": on an activity inside an ad-hoc sub-process (an agent loop's tool), the values the model fills
 * when it calls it, written as Camunda input mappings `fromAi(toolCall.<name>, "<description>", "<type>")`
 * (docs/agents.md). Other input mappings of the activity stay in the Camunda "Inputs" group.
 */
export function toolParamsGroup(element: Shape, injector: Injector) {
  const bo = element.businessObject;
  if (!is(bo, "bpmn:Activity") || !is(bo.$parent, "bpmn:AdHocSubProcess")) return null;
  const bpmnFactory = injector.get<BpmnFactory>("bpmnFactory");
  const commandStack = injector.get<CommandStack>("commandStack");
  const rows = paramsOf(bo);
  const add = (e: Event) => {
    e.stopPropagation();
    const commands: unknown[] = [];
    let ext = bo.extensionElements;
    if (!ext) {
      ext = bpmnFactory.create("bpmn:ExtensionElements", { values: [] });
      ext.$parent = bo;
      commands.push(update(element, bo, { extensionElements: ext }));
    }
    let io = inputOutputOf(bo);
    if (!io) {
      io = bpmnFactory.create("camunda:InputOutput", { inputParameters: [], outputParameters: [] });
      io.$parent = ext;
      commands.push(update(element, ext, { values: [...ext.get("values"), io] }));
    }
    const taken = new Set(io.get("inputParameters").map((p: Bo) => p.name));
    let n = rows.length + 1;
    while (taken.has(`param${n}`)) n++;
    const name = `param${n}`;
    const param = bpmnFactory.create("camunda:InputParameter", {
      name,
      value: formatToolParam({ name, description: "", type: "string" }),
    });
    param.$parent = io;
    commands.push(update(element, io, { inputParameters: [...io.get("inputParameters"), param] }));
    commandStack.execute("properties-panel.multi-command-executor", commands);
  };
  const items = rows.map(({ param, value }, i) => {
    const id = `pmsToolParam-${i}`;
    const field = (f: keyof ToolParam, label: string) => ({
      id: `${id}-${f}`,
      component: ParamField,
      element,
      param,
      field: f,
      label,
      isEdited: f === "type" ? isSelectEntryEdited : isTextFieldEntryEdited,
    });
    return {
      id,
      label: `${value.name}: ${value.type}`,
      entries: [
        field("name", t("Name (the variable it sets)")),
        field("description", t("Description for the model")),
        field("type", t("Type")),
      ],
      autoFocusEntry: `${id}-name`,
      remove: () => {
        const io = inputOutputOf(bo);
        commandStack.execute(
          "element.updateModdleProperties",
          update(element, io, { inputParameters: io.get("inputParameters").filter((p: Bo) => p !== param) }).context,
        );
      },
    };
  });
  return {
    id: "PmsToolParameters",
    label: t("Tool parameters (filled by the agent)"),
    component: ListGroup,
    items,
    add,
  };
}
