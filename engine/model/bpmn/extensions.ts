/** Reads engine extension attributes/elements (Flowable, Activiti, Camunda, ours) whatever prefix a file binds them to. */

const ENGINE_NAMESPACES = new Set([
  "http://flowable.org/bpmn",
  "http://activiti.org/bpmn",
  "http://camunda.org/schema/1.0/bpmn",
  "http://www.camunda.com/fox",
  "urn:pms:bpmn",
]);

/** Any moddle object; the engine reads it defensively. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Moddle = any;

export class Extensions {
  readonly prefixes: string[];
  constructor(definitions: Moddle) {
    const attrs: Record<string, string> = definitions?.$attrs ?? {};
    const found = Object.entries(attrs)
      .filter(([k, v]) => k.startsWith("xmlns:") && ENGINE_NAMESPACES.has(String(v)))
      .map(([k]) => k.slice(6));
    // Prefixes are conventional even when the file forgets to declare them.
    this.prefixes = [...new Set([...found, "flowable", "activiti", "camunda", "pms"])];
  }

  /** Value of an extension attribute such as `formKey` on an element, or undefined. */
  attr(el: Moddle, name: string): string | undefined {
    const attrs = el?.$attrs;
    if (!attrs) return undefined;
    for (const p of this.prefixes) {
      const v = attrs[`${p}:${name}`];
      if (v !== undefined && v !== null && String(v) !== "") return String(v);
    }
    return undefined;
  }

  /** True when the extension attribute is "true". */
  flag(el: Moddle, name: string): boolean {
    return this.attr(el, name) === "true";
  }

  /** Extension child elements named `local` (e.g. `in`, `field`) of an element. */
  children(el: Moddle, local: string): Moddle[] {
    const values: Moddle[] = el?.extensionElements?.values ?? [];
    return values.filter((v) => this.isNamed(v, local));
  }

  /** Every extension element type under `el`, for refusing or warning about unsupported ones. */
  childTypes(el: Moddle): string[] {
    return (el?.extensionElements?.values ?? []).map((v: Moddle) => String(v.$type ?? ""));
  }

  isNamed(v: Moddle, local: string): boolean {
    const t = String(v?.$type ?? "");
    const i = t.indexOf(":");
    return i > 0 && t.slice(i + 1) === local && this.prefixes.includes(t.slice(0, i));
  }

  /** Text body of the first child named `local` of a generic extension element. */
  childText(v: Moddle, local: string): string | undefined {
    const c = (v?.$children ?? []).find((x: Moddle) => this.isNamed(x, local));
    return c?.$body !== undefined ? String(c.$body).trim() : undefined;
  }
}
