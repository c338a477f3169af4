import { extractText, getDocumentProxy } from "unpdf";
import { BadRequestError } from "../../../engine/errors";
import { notPdfReason, notTextReason } from "./sniff";

export type DocFormat = "PDF" | "TXT" | "MD";

/** A run of text with where it came from: a PDF page, or the whole file (Markdown headings are found by the chunker). */
export interface Section {
  text: string;
  page: number | null;
}

/** The format of an upload from its name (and type); anything else is refused with 400 naming what is accepted. */
export function formatOf(fileName: string, contentType: string): DocFormat {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (ext === "pdf" || contentType === "application/pdf") return "PDF";
  if (ext === "md" || ext === "markdown" || contentType === "text/markdown") return "MD";
  if (ext === "txt" || contentType === "text/plain") return "TXT";
  throw new BadRequestError(`Unsupported file type '${fileName}': upload a PDF, TXT or MD file`, [
    { field: "file", message: "must be PDF, TXT or MD" },
  ]);
}

/** The text of a stored document; throws with a reason for an unreadable or empty one (the document ends FAILED). */
export async function extractSections(format: DocFormat, bytes: Uint8Array): Promise<Section[]> {
  let sections: Section[];
  const refused = format === "PDF" ? notPdfReason(bytes) : notTextReason(bytes);
  if (refused) throw new Error(refused);
  if (format === "PDF") {
    let pages: string[];
    try {
      const pdf = await getDocumentProxy(new Uint8Array(bytes));
      pages = (await extractText(pdf, { mergePages: false })).text;
    } catch (e) {
      throw new Error(`The PDF could not be read: ${e instanceof Error ? e.message : e}`);
    }
    sections = pages.map((text, i) => ({ text, page: i + 1 }));
  } else {
    sections = [{ text: new TextDecoder("utf-8").decode(bytes), page: null }];
  }
  if (!sections.some((s) => s.text.trim())) throw new Error("The document contains no text");
  return sections;
}
