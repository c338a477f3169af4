// The console's language in browser tests: switching as a person does, and finding English a Portuguese page still
// shows.
import type { Page } from "playwright-core";

/** Switches the console to Portuguese with the header's (or the login page's) language select. */
export async function toPortuguese(page: Page): Promise<void> {
  await page.locator(".lang-switch select").selectOption("pt-BR");
  await page.waitForFunction(() => document.documentElement.lang === "pt-BR");
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Which of `english` stand in `text` as whole words ("Nome" does not hold "Name"). */
export const englishIn = (text: string, english: string[]): string[] =>
  english.filter((w) => new RegExp(`(^|[^\\p{L}])${escape(w)}($|[^\\p{L}])`, "u").test(text));
