// Diagrams (with their DI, so the modeler can show them) that the console's modeler tests open and change.

/** v1 of the process, with its diagram: start → ad-hoc "handle" (a user task inside) → a plain task "rate" → end. */
export const CLAIMS = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI"
  xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="t">
  <process id="claims" name="Claims" isExecutable="true">
    <startEvent id="s"/>
    <adHocSubProcess id="handle" name="Handle the claim">
      <userTask id="ask_person" name="Ask a person"/>
    </adHocSubProcess>
    <task id="rate" name="Rate the claim"/>
    <endEvent id="e"/>
    <sequenceFlow id="f1" sourceRef="s" targetRef="handle"/>
    <sequenceFlow id="f2" sourceRef="handle" targetRef="rate"/>
    <sequenceFlow id="f3" sourceRef="rate" targetRef="e"/>
  </process>
  <bpmndi:BPMNDiagram id="D1"><bpmndi:BPMNPlane id="P1" bpmnElement="claims">
    <bpmndi:BPMNShape id="s_di" bpmnElement="s"><dc:Bounds x="100" y="182" width="36" height="36"/></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="handle_di" bpmnElement="handle" isExpanded="true"><dc:Bounds x="200" y="100" width="300" height="200"/></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="ask_di" bpmnElement="ask_person"><dc:Bounds x="300" y="160" width="100" height="80"/></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="rate_di" bpmnElement="rate"><dc:Bounds x="560" y="160" width="100" height="80"/></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="e_di" bpmnElement="e"><dc:Bounds x="720" y="182" width="36" height="36"/></bpmndi:BPMNShape>
    <bpmndi:BPMNEdge id="f1_di" bpmnElement="f1"><di:waypoint x="136" y="200"/><di:waypoint x="200" y="200"/></bpmndi:BPMNEdge>
    <bpmndi:BPMNEdge id="f2_di" bpmnElement="f2"><di:waypoint x="500" y="200"/><di:waypoint x="560" y="200"/></bpmndi:BPMNEdge>
    <bpmndi:BPMNEdge id="f3_di" bpmnElement="f3"><di:waypoint x="660" y="200"/><di:waypoint x="720" y="200"/></bpmndi:BPMNEdge>
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</definitions>`;

/** Two plain tasks in a row, for the wrench to make a service task and a call activity of. */
export const INTAKE = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" id="d2" targetNamespace="t">
  <process id="intake" name="Intake" isExecutable="true">
    <startEvent id="s"/><task id="work" name="Do the work"/><task id="sub" name="Run claims"/><endEvent id="e"/>
    <sequenceFlow id="f1" sourceRef="s" targetRef="work"/><sequenceFlow id="f2" sourceRef="work" targetRef="sub"/>
    <sequenceFlow id="f3" sourceRef="sub" targetRef="e"/>
  </process>
  <bpmndi:BPMNDiagram id="D2"><bpmndi:BPMNPlane id="P2" bpmnElement="intake">
    <bpmndi:BPMNShape id="s_di" bpmnElement="s"><dc:Bounds x="100" y="182" width="36" height="36"/></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="work_di" bpmnElement="work"><dc:Bounds x="200" y="160" width="100" height="80"/></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="sub_di" bpmnElement="sub"><dc:Bounds x="440" y="160" width="100" height="80"/></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="e_di" bpmnElement="e"><dc:Bounds x="600" y="182" width="36" height="36"/></bpmndi:BPMNShape>
    <bpmndi:BPMNEdge id="f1_di" bpmnElement="f1"><di:waypoint x="136" y="200"/><di:waypoint x="200" y="200"/></bpmndi:BPMNEdge>
    <bpmndi:BPMNEdge id="f2_di" bpmnElement="f2"><di:waypoint x="300" y="200"/><di:waypoint x="440" y="200"/></bpmndi:BPMNEdge>
    <bpmndi:BPMNEdge id="f3_di" bpmnElement="f3"><di:waypoint x="540" y="200"/><di:waypoint x="600" y="200"/></bpmndi:BPMNEdge>
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</definitions>`;
