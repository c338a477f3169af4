/**
 * The small firm's leave-request process for the console story (console-story-e2e.test.ts): a start form, a decision
 * that routes it, an exclusive gateway with conditions, a user task for a candidate group with a form and a due date,
 * and a timer before the end. The diagram interchange is included, so the cockpit draws it.
 */

type Node = { id: string; tag: string; x: number; y: number; w: number; h: number; body: string };
type Flow = { id: string; from: string; to: string; condition?: string; points: [number, number][] };

const nodes: Node[] = [
  {
    id: "start",
    tag: "startEvent",
    x: 100,
    y: 200,
    w: 36,
    h: 36,
    body: 'name="Leave asked" camunda:formKey="leave-request"',
  },
  {
    id: "decide",
    tag: "businessRuleTask",
    x: 180,
    y: 178,
    w: 100,
    h: 80,
    body: 'name="Who decides" camunda:decisionRef="leave-route" camunda:resultVariable="route"',
  },
  { id: "gw", tag: "exclusiveGateway", x: 330, y: 193, w: 50, h: 50, body: 'name="Route"' },
  {
    id: "approve",
    tag: "userTask",
    x: 430,
    y: 178,
    w: 100,
    h: 80,
    body: 'name="Approve leave" camunda:candidateGroups="approvers" camunda:formKey="approve-form" camunda:dueDate="P3D"',
  },
  { id: "wait", tag: "intermediateCatchEvent", x: 580, y: 200, w: 36, h: 36, body: 'name="Cooling-off hour"' },
  { id: "endApproved", tag: "endEvent", x: 670, y: 200, w: 36, h: 36, body: 'name="Answered"' },
  { id: "endAuto", tag: "endEvent", x: 437, y: 320, w: 36, h: 36, body: 'name="Granted at once"' },
];

const flows: Flow[] = [
  {
    id: "f1",
    from: "start",
    to: "decide",
    points: [
      [136, 218],
      [180, 218],
    ],
  },
  {
    id: "f2",
    from: "decide",
    to: "gw",
    points: [
      [280, 218],
      [330, 218],
    ],
  },
  {
    id: "toManager",
    from: "gw",
    to: "approve",
    condition: '${route == "manager"}',
    points: [
      [380, 218],
      [430, 218],
    ],
  },
  {
    id: "toAuto",
    from: "gw",
    to: "endAuto",
    condition: '${route == "auto"}',
    points: [
      [355, 243],
      [355, 338],
      [437, 338],
    ],
  },
  {
    id: "f4",
    from: "approve",
    to: "wait",
    points: [
      [530, 218],
      [580, 218],
    ],
  },
  {
    id: "f5",
    from: "wait",
    to: "endApproved",
    points: [
      [616, 218],
      [670, 218],
    ],
  },
];

const element = (n: Node) =>
  n.tag === "intermediateCatchEvent"
    ? `<${n.tag} id="${n.id}" ${n.body}><timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition></${n.tag}>`
    : `<${n.tag} id="${n.id}" ${n.body}/>`;
const flow = (f: Flow) =>
  f.condition
    ? `<sequenceFlow id="${f.id}" sourceRef="${f.from}" targetRef="${f.to}"><conditionExpression xsi:type="tFormalExpression">${f.condition}</conditionExpression></sequenceFlow>`
    : `<sequenceFlow id="${f.id}" sourceRef="${f.from}" targetRef="${f.to}"/>`;

export const LEAVE_BPMN = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI"
  xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  id="leave-defs" targetNamespace="http://example.com/leave">
  <process id="leave" name="Leave request" isExecutable="true">
    ${nodes.map(element).join("\n    ")}
    ${flows.map(flow).join("\n    ")}
  </process>
  <bpmndi:BPMNDiagram id="d"><bpmndi:BPMNPlane id="p" bpmnElement="leave">
    ${nodes
      .map(
        (n) =>
          `<bpmndi:BPMNShape id="${n.id}_di" bpmnElement="${n.id}"><dc:Bounds x="${n.x}" y="${n.y}" width="${n.w}" height="${n.h}"/></bpmndi:BPMNShape>`,
      )
      .join("\n    ")}
    ${flows
      .map(
        (f) =>
          `<bpmndi:BPMNEdge id="${f.id}_di" bpmnElement="${f.id}">${f.points.map(([x, y]) => `<di:waypoint x="${x}" y="${y}"/>`).join("")}</bpmndi:BPMNEdge>`,
      )
      .join("\n    ")}
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</definitions>`;

/** Up to two days of leave is granted at once; more goes to the approvers. */
export const LEAVE_DMN = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="leave-dmn" name="Leave routing" namespace="http://example.com/leave">
  <decision id="leave-route" name="Leave route">
    <decisionTable id="routeTable" hitPolicy="UNIQUE">
      <input id="in_days" label="Days">
        <inputExpression id="ie_days" typeRef="number"><text>days</text></inputExpression>
      </input>
      <output id="out_route" name="route" typeRef="string" />
      <rule id="r_auto"><inputEntry id="e1"><text>&lt;= 2</text></inputEntry><outputEntry id="o1"><text>"auto"</text></outputEntry></rule>
      <rule id="r_manager"><inputEntry id="e2"><text>&gt; 2</text></inputEntry><outputEntry id="o2"><text>"manager"</text></outputEntry></rule>
    </decisionTable>
  </decision>
</definitions>`;
