import { join } from "node:path";
import type { Browser, ConsoleMessage, Page } from "playwright-core";
import { SCREENSHOTS } from "./browser";

export interface ConsolePage {
  page: Page;
  /** Every console error or warning and uncaught page error seen so far (a test expects none). */
  problems: string[];
  /**
   * The API's refusals (4xx) Chromium logged as failed resources: kept apart from `problems`, so a test that provokes a
   * refusal on purpose says how many it expected.
   */
  refused: string[];
  /** The messages of the confirmations asked so far; `confirmAnswer` is how the next ones are answered. */
  asked: string[];
  confirmAnswer: boolean;
  shot(name: string): Promise<unknown>;
}

/**
 * A new page signed in through the console's login form as `who`, waiting for the heading `landing`. Confirmations are
 * recorded and answered with `confirmAnswer` (true unless a test says otherwise); console errors and warnings are
 * collected so a test can require that there were none.
 */
export async function signedInPage(
  browser: Browser,
  url: string,
  who: { email: string; password: string },
  landing: string,
): Promise<ConsolePage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const cp: ConsolePage = {
    page,
    problems: [],
    refused: [],
    asked: [],
    confirmAnswer: true,
    shot: (name) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true }),
  };
  page.on("console", (m: ConsoleMessage) => {
    if (m.type() !== "error" && m.type() !== "warning") return;
    if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text()))
      cp.refused.push(m.text());
    else cp.problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => cp.problems.push(`pageerror: ${e.message}`));
  page.on("dialog", (d) => {
    cp.asked.push(d.message());
    void (cp.confirmAnswer ? d.accept() : d.dismiss());
  });
  await page.goto(`${url}/`);
  await page.getByLabel("E-mail").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: landing }).waitFor();
  return cp;
}
