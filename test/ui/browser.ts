// Shared by the page tests: Debian Chromium through playwright-core, a page that records every URL it requests, every
// failed answer and console error, and every WebSocket frame it sends, and where screenshots go (an ignored folder:
// artefacts, never committed).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
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
  /** Answers with status 400 or more, as `STATUS URL`. */
  failed: string[];
  /** Messages the page logged as errors (a failed resource load among them). */
  consoleErrors: string[];
}

export async function open(browser: Browser, url: string, viewport = LAPTOP): Promise<Opened> {
  const ctx = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await ctx.newPage();
  const o: Opened = { page, urls: [], wsSent: [], errors: [], failed: [], consoleErrors: [] };
  page.on('request', (r) => void o.urls.push(r.url()));
  page.on('response', (r) => void (r.status() >= 400 && o.failed.push(`${r.status()} ${r.url()}`)));
  page.on('console', (m) => void (m.type() === 'error' && o.consoleErrors.push(`${m.text()} (${m.location().url})`)));
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

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTEFACTS, { recursive: true });
  const path = join(ARTEFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
