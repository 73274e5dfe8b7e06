// @ts-check
// The system's headless Chromium (Debian's `chromium`), driven by
// playwright-core: never a browser of Playwright's own. A fresh profile
// directory per browser, removed by `close()`, which a test registers
// with `t.after` through `browse`.

import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { makeTempDir } from "./env.mjs";

/** The browser the tests drive (`$TASKLISTS_CHROMIUM` to use another build of Chromium). */
export const CHROMIUM = process.env.TASKLISTS_CHROMIUM || "/usr/bin/chromium";

/** Flags that keep it quiet on loopback: no GPU, no QUIC, no background traffic. */
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Starts Chromium with a fresh profile; `page` is its first tab (a phone's
 * when `hasTouch` and `isMobile`: touch events, the mobile viewport; a
 * browser without script when not `javaScriptEnabled`).
 * @param {{ width?: number, height?: number, hasTouch?: boolean, isMobile?: boolean, javaScriptEnabled?: boolean }} [options]
 */
export async function startBrowser({ width = 1280, height = 900, hasTouch = false, isMobile = false, javaScriptEnabled = true } = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set TASKLISTS_CHROMIUM)`);
  const profile = makeTempDir("tasklists-chromium-");
  try {
    const context = await chromium.launchPersistentContext(profile.dir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width, height },
      hasTouch,
      isMobile,
      javaScriptEnabled,
      timeout: 30000,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    /** Messages the page logged and errors it threw: a failure's evidence. */
    const console = /** @type {string[]} */ ([]);
    page.on("console", (m) => console.push(`${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => console.push(`pageerror: ${e.message}`));
    const close = async () => {
      try {
        await context.close();
      } finally {
        profile.remove();
      }
    };
    return { context, page, console, close };
  } catch (e) {
    profile.remove();
    throw e;
  }
}

/**
 * `startBrowser`, closed when the test ends.
 * @param {import("node:test").TestContext} t
 * @param {Parameters<typeof startBrowser>[0]} [options]
 */
export async function browse(t, options) {
  const browser = await startBrowser(options);
  t.after(browser.close);
  return browser;
}

/**
 * Saves a full-page PNG named `name` when `TASKLISTS_SCREENSHOTS` names a
 * directory (created if missing); does nothing otherwise.
 * @param {import("playwright-core").Page} page
 * @param {string} name
 */
export async function screenshot(page, name) {
  const dir = process.env.TASKLISTS_SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
