import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { html } from "./html";
import { t } from "./i18n";

export interface Loaded<T> {
  data?: T;
  error?: string;
  reload(): void;
}

/**
 * Runs `load` on mount (and on `reload()`), keeping its answer or its error for the page to show. Only the latest
 * run's answer is kept: one that arrives after a newer run started (a slow page of an earlier filter) is dropped.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []): Loaded<T> {
  const [state, set] = useState<{ data?: T; error?: string }>({});
  const latest = useRef(0);
  const run = useCallback(() => {
    const mine = ++latest.current;
    load()
      .then((data) => mine === latest.current && set({ data }))
      .catch((e: Error) => mine === latest.current && set((s) => ({ data: s.data, error: e.message })));
  }, deps);
  useEffect(run, [run]);
  return { ...state, reload: run };
}

/** What a page shows while its data is missing: the error, or a polite loading line. */
export function Pending({ error }: { error?: string }) {
  return error
    ? html`<p class="alert" role="alert">${error}</p>`
    : html`<p class="loading" aria-busy="true">${t("Loading…")}</p>`;
}

/** A button's action: runs `fn`, keeping its refusal to show (and clearing the previous one). */
export function useAction(): { error: string | null; run(fn: () => Promise<unknown>): Promise<void> } {
  const [error, setError] = useState<string | null>(null);
  const run = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return { error, run };
}
