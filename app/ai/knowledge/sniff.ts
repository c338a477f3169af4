/**
 * Knowledge uploads are checked for being what their name says before anything is indexed: a `.txt` full of binary
 * would otherwise be chunked, embedded and returned by searches as noise. Text must be UTF-8 without NUL bytes, with
 * at most INVALID_UTF8_SHARE of its characters undecodable (a stray Latin-1 letter passes, a binary does not), and
 * must not start with the signature of another kind of file; a PDF must carry the PDF signature.
 */
export const INVALID_UTF8_SHARE = 0.02;

const SIGNATURES: [string, number[]][] = [
  ["a PDF", [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ["a ZIP archive (or an Office document)", [0x50, 0x4b, 0x03, 0x04]],
  ["a PNG image", [0x89, 0x50, 0x4e, 0x47]],
  ["a JPEG image", [0xff, 0xd8, 0xff]],
  ["a GIF image", [0x47, 0x49, 0x46, 0x38]],
  ["a gzip archive", [0x1f, 0x8b]],
  ["an ELF executable", [0x7f, 0x45, 0x4c, 0x46]],
  ["a Windows executable", [0x4d, 0x5a, 0x90, 0x00]],
  ["an OLE document (old Office)", [0xd0, 0xcf, 0x11, 0xe0]],
  ["a RAR archive", [0x52, 0x61, 0x72, 0x21]],
  ["a 7-Zip archive", [0x37, 0x7a, 0xbc, 0xaf]],
  ["a SQLite database", [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66]],
  ["a RIFF file (audio, video, image)", [0x52, 0x49, 0x46, 0x46]],
];

const startsWith = (bytes: Uint8Array, sig: number[]) => sig.every((b, i) => bytes[i] === b);

/** What a text upload really is, when it is not text; null when it is. */
export function notTextReason(bytes: Uint8Array): string | null {
  for (const [name, sig] of SIGNATURES) if (startsWith(bytes, sig)) return `The file is ${name}, not text`;
  if (bytes.includes(0)) return "The file contains NUL bytes: it is not UTF-8 text";
  const text = new TextDecoder("utf-8").decode(bytes);
  let bad = 0;
  for (let i = text.indexOf("\uFFFD"); i !== -1; i = text.indexOf("\uFFFD", i + 1)) bad++;
  if (text.length && bad / text.length > INVALID_UTF8_SHARE)
    return `The file is not UTF-8 text (${Math.round((100 * bad) / text.length)} % of it cannot be decoded)`;
  return null;
}

/** A PDF must start with its signature (the format allows up to 1 KiB of leading bytes). */
export function notPdfReason(bytes: Uint8Array): string | null {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  return head.includes("%PDF-") ? null : "The file does not carry the PDF signature: it is not a PDF";
}
