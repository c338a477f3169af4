/** Plain, JSON-serialisable model of one executable process: what the interpreter reads, cached per definition version. */

export type EventKind =
  | "none"
  | "message"
  | "signal"
  | "timer"
  | "error"
  | "escalation"
  | "terminate"
  | "conditional"
  | "link"
  | "compensate"
  | "cancel";

export interface TimerDef {
  type: "date" | "duration" | "cycle";
  expr: string;
}

export interface EventDef {
  kind: EventKind;
  /** message or signal name, link name */
  name?: string;
  /** error or escalation code; undefined catches all */
  code?: string;
  timer?: TimerDef;
  condition?: string;
}

export interface MultiInstanceDef {
  sequential: boolean;
  collection?: string;
  elementVariable?: string;
  /** standard loopDataOutputRef: the list the instances' outputDataItem values are collected into, in item order */
  outputCollection?: string;
  outputElementVariable?: string;
  loopCardinality?: string;
  completionCondition?: string;
}

export interface AdhocDef {
  sequential: boolean;
  completionCondition?: string;
  /** when the completion condition holds: cancel the activities still running (true, the default) or wait for them */
  cancelRemaining: boolean;
  enabled: string[];
  /** key of the AI agent that drives the subprocess as a loop (`pms:agent`); an attachment row may name one too */
  agent?: string;
}

/** A value the agent fills when it calls an activity as a tool: `fromAi(toolCall.name, "description", "type")`. */
export interface ToolParam {
  /** the argument's name in the tool call */
  name: string;
  /** the local variable of the activity it becomes */
  target: string;
  description: string;
  type: string;
}

export interface UserTaskDef {
  assignee?: string;
  candidateUsers?: string;
  candidateGroups?: string;
  formKey?: string;
  dueDate?: string;
  priority?: string;
}

export interface Mapping {
  source?: string;
  sourceExpression?: string;
  target?: string;
  all?: boolean;
}

export interface ServiceDef {
  /** registry name (delegateExpression/class/type) or an expression to evaluate */
  delegate?: string;
  expression?: string;
  fields: Record<string, string>;
  resultVariable?: string;
  /** Robot key (pms:robot, or camunda:topic of camunda:type="external"): the step waits for an external runner. */
  robot?: string;
  /** `camunda:taskPriority` of a robot's step (a whole number): runners fetching with usePriority take higher first. */
  taskPriority?: number;
  /** key of the AI agent the model names (`pms:agent`); the task then runs the `agent` delegate */
  agent?: string;
}

export interface ElementModel {
  id: string;
  type: string;
  name: string;
  /** id of the containing scope: the process id or a subprocess id */
  scope: string;
  incoming: string[];
  outgoing: string[];
  default?: string;
  event?: EventDef;
  boundaries?: string[];
  attachedTo?: string;
  cancelActivity?: boolean;
  async?: boolean;
  retryCycle?: string;
  mi?: MultiInstanceDef;
  userTask?: UserTaskDef;
  service?: ServiceDef;
  script?: { format: "feel" | "juel" | "javascript"; body: string; resultVariable?: string };
  rule?: { decisionKey?: string; resultVariable?: string };
  call?: { calledElement: string; inputs: Mapping[]; outputs: Mapping[]; businessKey?: string };
  /** subprocess family: ids of the start events and event subprocesses directly inside */
  starts?: string[];
  /**
   * An embedded subprocess without a start event (BPMN 2.0 §10.5.6): the inner activities and events no flow reaches,
   * each started by a token of its own when the subprocess is entered.
   */
  implicitStarts?: string[];
  eventSubprocesses?: string[];
  triggeredByEvent?: boolean;
  terminateAll?: boolean;
  formKey?: string;
  initiator?: string;
  /** ad-hoc subprocess: ordering, completion, and the inner activities a caller may start (no incoming flow) */
  adhoc?: AdhocDef;
  /** compensation: the handler activity of a compensate boundary event; a throw's `activityRef` */
  compensationHandler?: string;
  compensateActivity?: string;
  forCompensation?: boolean;
  /** the element's documentation (an agent's tool description) */
  documentation?: string;
  /** the input mappings an agent fills when it calls the activity as a tool */
  toolParams?: ToolParam[];
  /** set when the element cannot run as modelled: reaching it raises an incident with this message */
  invalid?: string;
}

export interface FlowModel {
  id: string;
  source: string;
  target: string;
  name?: string;
  condition?: string;
  /** set when the condition is JavaScript (run in the sandbox); otherwise FEEL or \${...} */
  language?: "javascript";
  invalid?: string;
}

export interface ShapeDi {
  x: number;
  y: number;
  width: number;
  height: number;
  expanded?: boolean;
}

export interface ProcessModel {
  id: string;
  name: string;
  isExecutable: boolean;
  elements: Record<string, ElementModel>;
  flows: Record<string, FlowModel>;
  /** none start events directly in the process */
  starts: string[];
  eventSubprocesses: string[];
  startFormKey: string | null;
  messageStarts: Array<{ elementId: string; name: string }>;
  signalStarts: Array<{ elementId: string; name: string }>;
  timerStarts: Array<{ elementId: string; timer: TimerDef }>;
  diagram: {
    shapes: Record<string, ShapeDi>;
    edges: Record<string, Array<{ x: number; y: number }>>;
    labels: Record<string, ShapeDi>;
  } | null;
}

export interface ParsedBpmn {
  processes: ProcessModel[];
  /** every process in the file, executable or not (ids), for clear refusals */
  allProcessIds: string[];
  warnings: string[];
}
