import { useEffect, useRef, useState } from "preact/hooks";
import type { Badge, Marker } from "./diagram";

export interface DiagramSpec {
  xml: string;
  badges?: Badge[];
  markers?: Marker[];
}

/**
 * Draws a BPMN diagram into the element given `ref` once `spec` is there, importing bpmn-js only then (a lazy chunk),
 * and destroys the viewer when the page leaves or `deps` change. `error` holds a diagram that could not be drawn.
 */
export function useDiagram(spec: DiagramSpec | null, deps: unknown[]) {
  const ref = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const box = ref.current;
    if (!spec || !box) return;
    let destroy: (() => void) | null = null;
    let gone = false;
    import("./diagram")
      .then(({ drawDiagram }) => drawDiagram(box, spec.xml, spec.badges ?? [], spec.markers ?? []))
      .then((d) => (gone ? d() : (destroy = d)))
      .catch((e: Error) => setError(e.message));
    return () => {
      gone = true;
      destroy?.();
    };
  }, deps);
  return { ref, error };
}
