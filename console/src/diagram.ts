import { t } from "./i18n";

/**
 * The bpmn-js viewer, imported only by the pages that show a diagram: Bun's bundler puts it in a chunk of its own, and
 * its stylesheets (served from the bpmn-js package at /bpmn-js/) are linked the first time a diagram is drawn.
 */
export interface Badge {
  elementId: string;
  text: string;
  className: string;
  title: string;
  /** When given, the badge is a button that calls it (the monitor opens the step's parked instances). */
  onClick?: () => void;
}

/** A class put on a diagram element (bpmn-js markers), e.g. the state of a step in the instance view. */
export interface Marker {
  elementId: string;
  className: string;
}

const STYLES = ["/bpmn-js/diagram-js.css", "/bpmn-js/bpmn-js.css", "/bpmn-js/bpmn-font/css/bpmn.css"];

export function linkStyles(): void {
  for (const href of STYLES) {
    if (document.querySelector(`link[href="${href}"]`)) continue;
    const l = document.createElement("link");
    l.rel = "stylesheet";
    l.href = href;
    document.head.append(l);
  }
}

/**
 * Draws `xml` into `container` with a badge on each listed element and the listed markers; returns a function that
 * destroys the viewer.
 */
export async function drawDiagram(
  container: HTMLElement,
  xml: string,
  badges: Badge[],
  markers: Marker[] = [],
): Promise<() => void> {
  linkStyles();
  const { default: Viewer } = await import("bpmn-js/lib/NavigatedViewer");
  const viewer = new Viewer({ container });
  try {
    await viewer.importXML(xml);
  } catch (e) {
    // A model that cannot be drawn (one without diagram interchange) leaves no viewer behind: each reload of the page
    // would otherwise add another empty canvas to the box.
    viewer.destroy();
    throw e;
  }
  const canvas = viewer.get("canvas") as { zoom(mode: string): void; addMarker(id: string, cls: string): void };
  const overlays = viewer.get("overlays") as {
    add(id: string, o: { position: Record<string, number>; html: HTMLElement }): void;
  };
  canvas.zoom("fit-viewport");
  for (const m of markers) {
    try {
      canvas.addMarker(m.elementId, m.className);
    } catch {
      // an element the history names but this diagram lacks (an id that changed between versions)
    }
  }
  for (const b of badges) {
    const el = document.createElement(b.onClick ? "button" : "span");
    el.className = `badge ${b.className}`;
    el.textContent = b.text;
    el.title = b.title;
    if (b.onClick) {
      const click = b.onClick;
      (el as HTMLButtonElement).type = "button";
      el.setAttribute(
        "aria-label",
        t("{n} instances at {activity}: {title}", { n: b.text, activity: b.elementId, title: b.title }),
      );
      el.addEventListener("click", () => click());
    }
    el.setAttribute("data-activity", b.elementId);
    try {
      overlays.add(b.elementId, { position: { bottom: 8, right: 12 }, html: el });
      canvas.addMarker(b.elementId, `parked-${b.className}`);
    } catch {
      // an activity of another version may be missing from this diagram: the table below still lists it
    }
  }
  return () => viewer.destroy();
}
