import { useEffect, useState } from "preact/hooks";

/** Hash routes (`#/tasks/42`): the server only ever serves `/`, so every page reloads and deep-links as is. */
export function useRoute(): string[] {
  const read = () =>
    location.hash.replace(/^#\/?/, "").split("?")[0].split("/").filter(Boolean).map(decodeURIComponent);
  const [parts, set] = useState(read);
  useEffect(() => {
    const on = () => set(read());
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  return parts;
}

export function go(path: string): void {
  location.hash = `#${path}`;
}

/** A one-shot message carried to the next page (e.g. the business key of a started process). */
let flash: string | null = null;
export function setFlash(m: string): void {
  flash = m;
}
export function takeFlash(): string | null {
  const m = flash;
  flash = null;
  return m;
}
