import type { Moddle } from "./moddle";

const ENGINE_PREFIXES = ["flowable", "activiti", "camunda", "pms"];

/** Value of an engine extension attribute (`flowable:assignee`...) whatever engine prefix the file uses. */
export function attr(el: Moddle, name: string): string | undefined {
  const attrs = el?.$attrs ?? {};
  for (const p of ENGINE_PREFIXES) {
    const v = attrs[`${p}:${name}`];
    if (v !== undefined && v !== null && String(v) !== "") return String(v);
  }
  return undefined;
}

export function extension(el: Moddle, local: string): Moddle | undefined {
  return (el?.extensionElements?.values ?? []).find((v: Moddle) =>
    ENGINE_PREFIXES.some((p) => v.$type === `${p}:${local}`),
  );
}
