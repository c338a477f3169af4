import type { ProcessModel } from "../../../engine/model/bpmn";

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Draws the BPMN DI of a model as SVG: events as circles, gateways as diamonds, activities as rounded boxes, flows as arrows; active activities highlighted. */
export function renderDiagramSvg(model: ProcessModel, active: Set<string>): string {
  const d = model.diagram;
  if (!d || !Object.keys(d.shapes).length)
    return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="60"><text x="10" y="35" font-family="sans-serif" font-size="14">No diagram (BPMN DI) in this model</text></svg>`;
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  const grow = (x: number, y: number, w = 0, h = 0) => {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x + w);
    maxY = Math.max(maxY, y + h);
  };
  for (const s of Object.values(d.shapes)) grow(s.x, s.y, s.width, s.height);
  for (const l of Object.values(d.labels)) grow(l.x, l.y, l.width, l.height);
  for (const pts of Object.values(d.edges)) for (const p of pts) grow(p.x, p.y);
  const pad = 20,
    w = maxX - minX + pad * 2,
    h = maxY - minY + pad * 2;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="${minX - pad} ${minY - pad} ${w} ${h}" font-family="sans-serif" font-size="11">`,
  );
  out.push(
    `<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>`,
  );
  for (const [id, pts] of Object.entries(d.edges)) {
    if (pts.length < 2) continue;
    out.push(
      `<polyline data-element-id="${esc(id)}" points="${pts.map((p) => `${p.x},${p.y}`).join(" ")}" fill="none" stroke="#333" stroke-width="1.5" marker-end="url(#arrow)"/>`,
    );
  }
  for (const [id, s] of Object.entries(d.shapes)) {
    const el = model.elements[id];
    const type = el?.type ?? "";
    const on = active.has(id);
    const stroke = on ? "#e8590c" : "#333",
      sw = on ? 4 : 1.5,
      fill = on ? "#fff4e6" : "#fff";
    const cls = `class="${on ? "active " : ""}${esc(type)}" data-element-id="${esc(id)}"`;
    if (type.endsWith("Event")) {
      const r = Math.min(s.width, s.height) / 2;
      out.push(
        `<circle ${cls} cx="${s.x + s.width / 2}" cy="${s.y + s.height / 2}" r="${r}" fill="${fill}" stroke="${stroke}" stroke-width="${type === "endEvent" ? Math.max(sw, 3) : sw}"/>`,
      );
    } else if (type.endsWith("Gateway")) {
      const cx = s.x + s.width / 2,
        cy = s.y + s.height / 2;
      out.push(
        `<polygon ${cls} points="${cx},${s.y} ${s.x + s.width},${cy} ${cx},${s.y + s.height} ${s.x},${cy}" fill="${fill}" stroke="${stroke}" stroke-width="${sw}"/>`,
      );
      const mark =
        type === "parallelGateway"
          ? "+"
          : type === "exclusiveGateway"
            ? "×"
            : type === "inclusiveGateway"
              ? "○"
              : type === "eventBasedGateway"
                ? "◇"
                : "";
      if (mark) out.push(`<text x="${cx}" y="${cy + 5}" text-anchor="middle" font-size="16">${mark}</text>`);
    } else if (el || !model.elements[id]) {
      if (!el && !id) continue;
      out.push(
        `<rect ${cls} x="${s.x}" y="${s.y}" width="${s.width}" height="${s.height}" rx="10" fill="${el ? fill : "none"}" stroke="${el ? stroke : "#999"}" stroke-width="${sw}"/>`,
      );
    }
    const name = el?.name;
    if (name) {
      const l = d.labels[id];
      const inside = !l && !type.endsWith("Event") && !type.endsWith("Gateway");
      const x = l ? l.x + l.width / 2 : s.x + s.width / 2;
      const y = l ? l.y + l.height / 2 + 4 : inside ? s.y + s.height / 2 + 4 : s.y + s.height + 14;
      out.push(`<text x="${x}" y="${y}" text-anchor="middle">${esc(name)}</text>`);
    }
  }
  out.push("</svg>");
  return out.join("\n");
}
