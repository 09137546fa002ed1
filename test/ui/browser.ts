// Shared by the page tests: Debian Chromium through playwright-core, a page that records every URL it requests, every
// failed answer and console error, and every WebSocket frame it sends, and where screenshots go (an ignored folder:
// artefacts, never committed).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { ROOT } from '../helpers/server.js';

export const CHROMIUM = process.env.VJD_CHROMIUM ?? '/usr/bin/chromium';
export const ARTEFACTS = process.env.VJD_UI_ARTEFACTS ?? join(ROOT, '.tmp', 'ui-artefacts');
export const LAPTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface Opened {
  page: Page;
  /** Every URL the page requested, the WebSocket's included. */
  urls: string[];
  /** Text frames the page sent on any WebSocket, in order. */
  wsSent: string[];
  errors: string[];
  /** Answers with status 400 or more, as `STATUS URL` (a thumbnail's 503 goes to `overloaded`). */
  failed: string[];
  /** Messages the page logged as errors (a failed resource load among them). */
  consoleErrors: string[];
  /**
   * Thumbnail loads the server answered 503 (PREVIEW_TIMEOUT or THUMBNAIL_QUEUE_FULL: documented overload answers a
   * loaded box gives now and then; the page's next refresh asks again). Kept apart from consoleErrors, which the
   * browser would otherwise fill with them.
   */
  overloaded: string[];
}

const THUMBNAIL_503 =
  /^Failed to load resource: the server responded with a status of 503\b.*\/api\/v1\/(thumbnails\/|catalog\/effects\/[^/]+\/thumbnail)/;

export async function open(browser: Browser, url: string, viewport = LAPTOP, extra: BrowserContextOptions = {}): Promise<Opened> {
  const ctx = await browser.newContext({ viewport, acceptDownloads: true, ...extra });
  const page = await ctx.newPage();
  const o: Opened = { page, urls: [], wsSent: [], errors: [], failed: [], consoleErrors: [], overloaded: [] };
  page.on('request', (r) => void o.urls.push(r.url()));
  page.on('response', (r) => {
    if (r.status() < 400) return;
    const line = `${r.status()} ${r.url()}`;
    (r.status() === 503 && r.url().includes('/api/v1/thumbnails/') ? o.overloaded : o.failed).push(line);
  });
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const line = `${m.text()} (${m.location().url})`;
    (THUMBNAIL_503.test(line) ? o.overloaded : o.consoleErrors).push(line);
  });
  page.on('websocket', (ws) => {
    o.urls.push(ws.url());
    ws.on('framesent', (f) => void o.wsSent.push(typeof f.payload === 'string' ? f.payload : f.payload.toString()));
  });
  page.on('pageerror', (e) => void o.errors.push(e.message));
  await page.goto(url);
  return o;
}

/** Resolves once the page has loaded its state (or shown the key prompt). */
export async function ready(page: Page): Promise<void> {
  // A function, not a string: the page's CSP forbids eval. globalThis, so this Node-side file needs no DOM types.
  await page.waitForFunction(
    () => (globalThis as any).__vjdReady !== undefined || (globalThis as any).document.getElementById('api-key') !== null,
    null,
    { timeout: 20000 },
  );
}

export async function loaded(page: Page): Promise<void> {
  await page.waitForFunction(() => (globalThis as any).__vjdReady !== undefined, null, { timeout: 20000 });
}

/**
 * On a narrow window, shows the tab that holds a panel (a laptop shows every panel: nothing to do). The tab is
 * pressed without scrolling to it, so the page stays at its top as a visitor found it (what is on screen matters to
 * panels that load pictures only while visible).
 */
export async function showTab(page: Page, tab: string): Promise<void> {
  const button = page.getByTestId(`tab-${tab}`);
  if (!(await button.isVisible())) return;
  await button.evaluate((el) => (el as any).click());
  await page.waitForFunction((t) => (globalThis as any).document.querySelector(`.slot.tabbed.shown[data-tab="${t}"]`) !== null, tab, {
    timeout: 20000,
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTEFACTS, { recursive: true });
  const path = join(ARTEFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
