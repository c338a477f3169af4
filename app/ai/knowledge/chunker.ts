import type { Section } from "./extract";

export interface Chunk {
  text: string;
  /** Heading path ("Install > Linux") for Markdown, "page N" for PDF, null for plain text. */
  location: string | null;
  /** Character offsets in the extracted text of the section (a PDF page, or the whole file). */
  start: number;
  end: number;
}

interface Block {
  text: string;
  location: string | null;
  start: number;
}

/** Paragraphs of a text with their offsets; Markdown headings open a new block and set the heading path. */
function blocksOf(section: Section, markdown: boolean): Block[] {
  const out: Block[] = [];
  const path: string[] = [];
  const page = section.page ? `page ${section.page}` : null;
  const re = /[^\n]+(?:\n(?!\s*\n)[^\n]*)*/g;
  for (const m of section.text.matchAll(re)) {
    const para = m[0].trim();
    if (!para) continue;
    const heading = markdown ? /^(#{1,6})\s+(.*)$/.exec(para.split("\n")[0]) : null;
    if (heading) {
      path.length = heading[1].length - 1;
      path[heading[1].length - 1] = heading[2].trim();
    }
    const loc = markdown && path.length ? path.filter(Boolean).join(" > ") : page;
    out.push({ text: para, location: loc, start: m.index ?? 0 });
  }
  return out;
}

/** The tail of `text` of about `n` characters, starting at a word boundary. */
function tail(text: string, n: number): string {
  if (n <= 0 || text.length <= n) return n <= 0 ? "" : text;
  const cut = text.slice(text.length - n);
  const sp = cut.indexOf(" ");
  return sp >= 0 ? cut.slice(sp + 1) : cut;
}

/**
 * Chunks by structure: paragraphs are packed up to `size` characters without crossing a heading or a page; a
 * paragraph longer than `size` is split at sentence or word boundaries. Each chunk starts with the last `overlap`
 * characters of the previous one in the same heading or page, so a fact on a boundary is found from both sides.
 */
export function chunkSections(sections: Section[], markdown: boolean, size: number, overlap: number): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of sections) {
    let cur: Chunk | null = null;
    const flush = () => {
      if (cur?.text.trim()) chunks.push(cur);
      cur = null;
    };
    for (const b of blocksOf(section, markdown)) {
      for (const piece of splitLong(b, size)) {
        const c = cur as Chunk | null;
        if (c && c.location === piece.location && c.text.length + piece.text.length + 2 <= size) {
          c.text += `\n\n${piece.text}`;
          c.end = piece.start + piece.text.length;
          continue;
        }
        const carry = c && c.location === piece.location ? tail(c.text, overlap) : "";
        flush();
        cur = {
          text: carry ? `${carry}\n\n${piece.text}` : piece.text,
          location: piece.location,
          start: piece.start,
          end: piece.start + piece.text.length,
        };
      }
    }
    flush();
  }
  return chunks;
}

function splitLong(b: Block, size: number): Block[] {
  if (b.text.length <= size) return [b];
  const out: Block[] = [];
  let from = 0;
  while (from < b.text.length) {
    let to = Math.min(b.text.length, from + size);
    if (to < b.text.length) {
      const window = b.text.slice(from, to);
      const stop = Math.max(window.lastIndexOf(". "), window.lastIndexOf("\n"));
      const space = window.lastIndexOf(" ");
      const cut = stop > size / 2 ? stop + 1 : space > size / 2 ? space : window.length;
      to = from + cut;
    }
    out.push({ text: b.text.slice(from, to).trim(), location: b.location, start: b.start + from });
    from = to;
  }
  return out.filter((x) => x.text);
}
