import { migrateDiagram } from "@bpmn-io/dmn-migrate";

const DMN13 = {
  MODEL: "https://www.omg.org/spec/DMN/20191111/MODEL/",
  DMNDI: "https://www.omg.org/spec/DMN/20191111/DMNDI/",
  DC: "http://www.omg.org/spec/DMN/20180521/DC/",
  DI: "http://www.omg.org/spec/DMN/20180521/DI/",
};

// DMN 1.4 (20211108) and 1.5 (20230324) only add to 1.3, so renaming their namespaces is enough for dmn-moddle.
const NEWER_RELEASES = ["20211108", "20230324"];
const LEGACY = ["http://www.omg.org/spec/DMN/20151101/dmn.xsd", "http://www.omg.org/spec/DMN/20180521/MODEL/"];

/** Bring any DMN 1.1 to 1.5 document to the 1.3 namespaces dmn-moddle reads (1.1 and 1.2 through dmn-migrate). */
export async function toDmn13(xml: string): Promise<string> {
  let out = xml;
  for (const release of NEWER_RELEASES) {
    for (const part of ["MODEL", "DMNDI", "DC", "DI"] as const) {
      for (const scheme of ["https", "http"]) {
        out = replaceNamespace(out, `${scheme}://www.omg.org/spec/DMN/${release}/${part}/`, DMN13[part]);
      }
    }
  }
  // dmn-migrate only recognises double-quoted namespace declarations.
  for (const ns of LEGACY) out = replaceNamespace(out, ns, ns);
  if (LEGACY.some((ns) => out.includes(`"${ns}"`))) out = await migrateDiagram(out);
  return out;
}

function replaceNamespace(xml: string, from: string, to: string): string {
  return xml.replaceAll(`"${from}"`, `"${to}"`).replaceAll(`'${from}'`, `"${to}"`);
}
