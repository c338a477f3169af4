import { expect, test } from "bun:test";
import { parseMail } from "./parse";

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));

test("an undeclared 8-bit subject and body that are not UTF-8 are read as windows-1252", async () => {
  const m = await parseMail(bytes("Subject: Fatura n", [0xba], " 12\r\n\r\nA", [0xe7, 0xe3], "o\r\n"));
  expect(m.subject).toBe("Fatura nº 12");
  expect(m.text?.trim()).toBe("Ação");
});

test("valid UTF-8 without a charset stays UTF-8", async () => {
  const m = await parseMail(bytes("Subject: Fatura nº 12\r\nContent-Type: text/plain\r\n\r\nAção\r\n"));
  expect(m.subject).toBe("Fatura nº 12");
  expect(m.text?.trim()).toBe("Ação");
});

test("a declared charset is obeyed, never replaced", async () => {
  const m = await parseMail(
    bytes("Subject: x\r\nContent-Type: text/plain; charset=iso-8859-7\r\n\r\n", [0xe1], "\r\n"),
  );
  expect(m.text?.trim()).toBe("α");
});

test("a part of a multipart without a charset falls back on its own; its declared sibling is kept", async () => {
  const m = await parseMail(
    bytes(
      'Subject: x\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nA',
      [0xe7, 0xe3],
      "o\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Disposition: attachment; filename=a.txt\r\n\r\n",
      "ção\r\n--b--\r\n",
    ),
  );
  expect(m.text?.trim()).toBe("Ação");
  expect(m.attachments[0]?.content.toString("utf8").trim()).toBe("ção");
});
