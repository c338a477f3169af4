import { describe, test } from "bun:test";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * The test material of ../shared/corpora, which a plain clone of the repository does not have. Suites that read it go
 * through `describeCorpus`: absent, they are reported as skipped with the reason; with REQUIRE_CORPORA=1 (CI) an
 * absent corpus is a failure, so the suites can never pass there by not running.
 */
export const CORPORA_DIR = resolve(import.meta.dir, "../../../shared/corpora");

export type CorpusName = "bpmn-exec" | "cmmn" | "dmn-tck-level2" | "dmn-tck-level3-part" | "miwg";

export const corpusDir = (name: CorpusName) => join(CORPORA_DIR, name);
export const corpusAvailable = (name: CorpusName) => existsSync(corpusDir(name));
const required = () => process.env.REQUIRE_CORPORA === "1";

/** `describe` when the corpus is there; otherwise a skipped suite naming what is missing (a failure under REQUIRE_CORPORA=1). */
export function describeCorpus(name: CorpusName, title: string, body: () => void): void {
  if (corpusAvailable(name)) return describe(title, body);
  const reason = `corpus ${name} absent (${corpusDir(name)})`;
  if (required()) {
    describe(title, () => {
      test(`REQUIRE_CORPORA=1 but the ${reason}`, () => {
        throw new Error(`REQUIRE_CORPORA=1 and the ${reason}`);
      });
    });
    return;
  }
  // The body is not run: it may read the corpus while collecting its tests.
  describe(title, () => {
    test.skip(`skipped: the ${reason}`, () => {});
  });
}
