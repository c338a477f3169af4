import { dirname, join } from "node:path";
import type { BunPlugin } from "bun";

/**
 * One Preact in the console bundle. bpmn-js's UI (`@bpmn-io/diagram-js-ui`) depends on Preact 10 but takes `html` from
 * `htm/preact`, which the installed tree resolves to the console's own Preact 11: its palette entries and popup menus
 * were vnodes of one copy rendered by the other, so the replace menu rendered nothing. The properties panel ships a
 * third copy (10.29.8, vendored as `@bpmn-io/properties-panel/preact`). Every import of Preact — bare `preact[/sub]`,
 * `@bpmn-io/properties-panel/preact[/sub]` and the panel's own relative `../preact[/sub]` — resolves to that vendored
 * copy, the version the bpmn.io libraries are built and tested against (docs/decisions.md, issue 30).
 */
export const PREACT_DIR = join(dirname(require.resolve("@bpmn-io/properties-panel/package.json")), "preact");

const exportsMap = (await Bun.file(join(PREACT_DIR, "package.json")).json()).exports as Record<
  string,
  { browser?: string } | string
>;

/** The browser build of one entry of the chosen copy (`""`, `"/hooks"`, `"/compat"`, `"/jsx-runtime"`, …). */
export function preactEntry(sub: string): string {
  const e = exportsMap[`.${sub}`];
  const file = typeof e === "string" ? e : e?.browser;
  if (!file) throw new Error(`Preact has no browser entry for 'preact${sub}'`);
  return join(PREACT_DIR, file);
}

export const onePreact: BunPlugin = {
  name: "one-preact",
  setup(build) {
    build.onResolve({ filter: /^(preact|@bpmn-io\/properties-panel\/preact)(\/[\w-]+)?$/ }, (args) => ({
      path: preactEntry(/(\/[\w-]+)?$/.exec(args.path.replace(/^@bpmn-io\/properties-panel\//, ""))?.[0] ?? ""),
    }));
    // The properties panel's dist and the vendored copy itself reach it by relative paths (`../preact`, `../..`).
    build.onResolve({ filter: /^\.\.?\/.*/ }, (args) => {
      const target = join(dirname(args.importer), args.path);
      if (target === PREACT_DIR) return { path: preactEntry("") };
      if (dirname(target) === PREACT_DIR) return { path: preactEntry(`/${target.slice(PREACT_DIR.length + 1)}`) };
      return undefined;
    });
  },
};
