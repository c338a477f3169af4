import { expect, test } from "bun:test";
import { describeCorpus } from "../harness/corpora";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { corpusAvailable, corpusDir } from "../harness/corpora";
import { makeRuntime } from "../fixtures/bpmn/harness";

const root = corpusDir("miwg");
function walk(d: string): string[] {
  return readdirSync(d)
    .sort()
    .flatMap((f) => {
      const p = join(d, f);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
}
const files = (corpusAvailable("miwg") ? walk(root) : []).filter((f) => /\.(bpmn|xml)$/i.test(f));

/** Constructs we refuse on purpose; any other refusal of a MIWG file would be a bug. */
const PRECISE =
  /^(Malformed BPMN XML|No executable process|No process found|Process '.+': (Element '.+' \(.+\): .+ (are|is) not supported|Compensation event|Script task '.+' uses scriptFormat|.+method calls are not supported|Sequence flow '.+' uses a '.+' condition|(Subprocess|Transaction) '.+' has no start event))/;
/** Refused even when marked executable (issue 16): a subprocess without a start event would only fail when reached. */
const REFUSED_EXECUTABLE =
  /^Process '.+': (Subprocess|Transaction) '.+' has no start event: an embedded subprocess needs/;

describeCorpus("miwg", "MIWG reference models and tool exports", () => {
  const { rt } = makeRuntime();
  test("the corpus is there", () => expect(files.length).toBeGreaterThan(100));
  for (const f of files) {
    const name = relative(root, f);
    const xml = readFileSync(f, "utf8");
    const marked = /isExecutable="true"/.test(xml);
    test(`${name} ${marked ? "deploys (marked executable)" : "deploys or is refused with a precise message"}`, async () => {
      try {
        const d = await rt.deploy("miwg", xml, { fileName: name, createdBy: null });
        expect(d.definitions.length).toBeGreaterThan(0);
        expect(Array.isArray(d.warnings)).toBe(true);
      } catch (e) {
        const err = e as { code?: string; message: string };
        if (marked && !REFUSED_EXECUTABLE.test(err.message))
          throw new Error(`executable model refused: ${err.message}`);
        expect(err.code).toBe("BAD_REQUEST");
        expect(err.message).toMatch(PRECISE);
      }
    });
  }
});
