import type { TestServer } from "./server";

/** A multipart body with one `file` part. */
export function fileForm(name: string, content: string | Uint8Array, type = "text/plain"): FormData {
  const form = new FormData();
  form.append("file", new File([content as BlobPart], name, { type }));
  return form;
}

export const upload = (
  s: TestServer,
  token: string | undefined,
  path: string,
  name: string,
  content: string | Uint8Array,
  type?: string,
  apiKey?: string,
) => s.req("POST", path, { token, apiKey, body: fileForm(name, content, type) });

/** Runs the queued indexing jobs until none is due (the executor's loop is not started in tests). */
export async function drainJobs(s: TestServer): Promise<void> {
  for (let i = 0; i < 20; i++) if ((await s.platform.ports.serviceJobs.runDue()) === 0) return;
}

/** A small valid PDF with one page of text per entry (for extraction tests). */
export function tinyPdf(pages: string[]): Uint8Array {
  const objs: string[] = [];
  const kids = pages.map((_, i) => `${4 + i * 2} 0 R`).join(" ");
  objs.push("<< /Type /Catalog /Pages 2 0 R >>");
  objs.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  objs.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  pages.forEach((text, i) => {
    const stream = `BT /F1 12 Tf 72 720 Td (${text.replace(/[()\\]/g, "")}) Tj ET`;
    objs.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`,
    );
    objs.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}
