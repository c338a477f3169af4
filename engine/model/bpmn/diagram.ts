import type { Moddle } from "./extensions";
import type { ProcessModel, ShapeDi } from "./types";

type Diagram = NonNullable<ProcessModel["diagram"]>;

function bounds(b: Moddle): ShapeDi | null {
  if (!b) return null;
  return { x: Number(b.x) || 0, y: Number(b.y) || 0, width: Number(b.width) || 0, height: Number(b.height) || 0 };
}

/** Collects BPMN DI shapes and edges by element id (the plane of every diagram in the file). */
export function readDiagram(definitions: Moddle): Diagram | null {
  const diagrams: Moddle[] = definitions?.diagrams ?? [];
  if (!diagrams.length) return null;
  const out: Diagram = { shapes: {}, edges: {}, labels: {} };
  for (const d of diagrams) {
    for (const pe of d?.plane?.planeElement ?? []) {
      const id = pe?.bpmnElement?.id;
      if (!id) continue;
      if (pe.$type === "bpmndi:BPMNShape") {
        const b = bounds(pe.bounds);
        if (b) out.shapes[id] = { ...b, expanded: pe.isExpanded === true ? true : undefined };
      } else if (pe.$type === "bpmndi:BPMNEdge") {
        out.edges[id] = (pe.waypoint ?? []).map((w: Moddle) => ({ x: Number(w.x) || 0, y: Number(w.y) || 0 }));
      }
      const lb = bounds(pe.label?.bounds);
      if (lb) out.labels[id] = lb;
    }
  }
  return out;
}
