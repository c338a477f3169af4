import { describe, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import type { TestServer } from "./server";

/** Debian's Chromium (installed by .ci/run); no browser is ever downloaded at run time. */
export const CHROMIUM = "/usr/bin/chromium";
export const SCREENSHOTS = join(import.meta.dir, "../../test-results/console");

/**
 * Why browser tests cannot run here, or null when they can. With REQUIRE_BROWSER=1 (CI) a missing browser is a failure
 * of the run, not a skip: the caller throws this reason instead.
 */
export function browserMissing(): string | null {
  return existsSync(CHROMIUM) ? null : `${CHROMIUM} is not installed (apt-get install chromium)`;
}
export const browserRequired = () => process.env.REQUIRE_BROWSER === "1";

/**
 * A describe block that needs Chromium (as corpora.ts does for the corpora): without the browser it is skipped with the
 * reason, or, under REQUIRE_BROWSER=1 (CI), it is one failing test naming what is missing. Its body is not run then.
 */
export function describeInBrowser(title: string, body: () => void): void {
  const missing = browserMissing();
  if (!missing) return void describe(title, body);
  if (browserRequired()) {
    describe(title, () => {
      test(`REQUIRE_BROWSER=1 but ${missing}`, () => {
        throw new Error(`REQUIRE_BROWSER=1 but ${missing}`);
      });
    });
    return;
  }
  describe(title, () => {
    test.skip(`skipped: ${missing}`, () => {});
  });
}

/**
 * Every page reports what the service's Content-Security-Policy blocked (Chromium logs each refusal as a console
 * error); closing the browser fails the test run if anything was, so every browser test also proves the console works
 * under the CSP without relying on what it refused.
 */
function watchCsp(browser: Browser): Browser {
  const refused: string[] = [];
  const watch = (page: Page) => {
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) refused.push(`${page.url()}: ${m.text()}`);
    });
    return page;
  };
  const watchContext = (ctx: BrowserContext) => {
    ctx.on("page", watch);
    return ctx;
  };
  const newPage = browser.newPage.bind(browser);
  const newContext = browser.newContext.bind(browser);
  const close = browser.close.bind(browser);
  browser.newPage = async (...a) => watch(await newPage(...a));
  browser.newContext = async (...a) => watchContext(await newContext(...a));
  browser.close = async (...a) => {
    await close(...a);
    if (refused.length) throw new Error(`the CSP refused: ${refused.join("\n")}`);
  };
  return browser;
}

/** Headless Chromium with a fresh temporary profile, nothing reaching outside the machine. */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return watchCsp(await launchBrowser(extraArgs));
}

function launchBrowser(extraArgs: string[]): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...extraArgs,
    ],
  });
}

/** The console's stored session of a member with `tenantSlug` chosen, as the login and tenant pages leave it. */
export async function consoleSession(s: TestServer, user: { email: string; password: string }, tenantSlug: string) {
  const login = await (
    await s.req("POST", "/api/auth/login", { json: { email: user.email, password: user.password } })
  ).json();
  const picked = await (
    await s.req("POST", "/api/auth/select-tenant", { token: login.accessToken, json: { tenantSlug } })
  ).json();
  return JSON.stringify({ ...picked, tenants: login.tenants, tenant: tenantSlug });
}

/** The test server on a socket and a browser for it; `close()` ends both, then the server. */
export async function browserOn(s: TestServer) {
  const web = listen(s);
  const browser = await launchChromium();
  return {
    url: web.url,
    browser,
    async close() {
      await browser.close();
      web.stop();
      await s.close();
    },
  };
}

/** Puts the test server's app on a real listening socket on 127.0.0.1 (a browser needs one). */
export function listen(s: TestServer) {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req, srv) => s.app.fetch(req, { server: srv }),
  });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}
