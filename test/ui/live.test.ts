// Two operators, a phone and a laptop, on one vjd without a key: a change in one page shows in the other; the
// accessibility check at both sizes; screenshots as artefacts; a 5 000-file library browsed in a virtualised list.
// Figures (first useful paint, event-to-DOM latency, scroll frame times) are printed and written to the results
// folder; nothing here asserts a timing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { RESULTS_DIR, req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';
import { launch, loaded, open, LAPTOP, PHONE, screenshot } from './browser.js';

const FILES = 5000;
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let s: TestServer;
let browser: Browser;
let a: Page;
let b: Page;
const figures: Record<string, unknown> = {};

const api = async (method: string, path: string, body?: unknown): Promise<any> => {
  const r = await req(method, `${s.base}/api/v1${path}`, { body, timeoutMs: 15000 });
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
  return r.json();
};
const until = (cond: () => Promise<boolean> | boolean, what: string, ms = 20000): Promise<void> =>
  waitUntil(cond, ms, 100).catch(() => {
    throw new Error(`timed out: ${what}`);
  });

/** 5 000 tiny files with their probe verdicts already cached, so the library lists them without running ffprobe. */
async function seedLibrary(dataDir: string): Promise<void> {
  const media = join(dataDir, 'media');
  await mkdir(media, { recursive: true });
  const entries: Record<string, unknown> = {};
  for (let i = 0; i < FILES; i += 250) {
    await Promise.all(
      Array.from({ length: Math.min(250, FILES - i) }, async (_, j) => {
        const path = join(media, `clip ${String(i + j).padStart(4, '0')}.mp4`);
        await writeFile(path, `clip ${i + j}`);
        const st = await stat(path);
        entries[path] = {
          size: st.size,
          mtimeMs: st.mtimeMs,
          result: { type: 'video', width: 64, height: 36, durationSec: 1, fps: 30, codec: 'h264', format: 'mp4' },
        };
      }),
    );
  }
  await mkdir(join(dataDir, 'cache'), { recursive: true });
  await writeFile(join(dataDir, 'cache', 'probe-cache.json'), JSON.stringify({ version: 1, entries }));
}

test.before(async () => {
  const dataDir = await tempDir('vjd-ui-live-');
  await seedLibrary(dataDir);
  s = await startServer({ dataDir });
  browser = await launch();
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
});

test('first useful paint: the page is loaded with its state; without a key the status bar says so', async () => {
  const started = Date.now();
  a = (await open(browser, `${s.base}/ui/`, LAPTOP)).page;
  await loaded(a);
  const ready = await a.evaluate(() => (globalThis as any).__vjdReady as number);
  figures.firstUsefulPaintMs = Math.round(ready);
  figures.firstUsefulPaintWallMs = Date.now() - started;
  assert.is(await a.getByTestId('keystate').innerText(), 'no key set');
  assert.is(await a.locator('#api-key').count(), 0, 'no prompt without a key');
  b = (await open(browser, `${s.base}/ui/`, PHONE)).page;
  await loaded(b);
});

test('two pages: what one does shows on the other (event-to-DOM latency measured)', async () => {
  await a.locator('.swatch[data-id="neon-club"]').click();
  await until(async () => (await b.getByTestId('palette-current').innerText()) === 'Neon Club', 'palette on page B');
  await b.getByTestId('blackout').click();
  await until(async () => (await a.getByTestId('blackout').getAttribute('aria-pressed')) === 'true', 'blackout on page A');
  await a.getByTestId('blackout').click();
  await until(async () => (await b.getByTestId('blackout').getAttribute('aria-pressed')) === 'false', 'blackout off on page B');
  // Latency: a click in A, the clock read in the same task; B notes when its DOM shows the change (same browser,
  // so both clocks are performance.timeOrigin + now()).
  const samples: number[] = [];
  for (let i = 0; i < 8; i++) {
    const want = i % 2 === 0 ? 'true' : 'false';
    const seen = b.evaluate(
      (w) =>
        new Promise<number>((resolve) => {
          const el = (globalThis as any).document.querySelector('[data-testid="blackout"]');
          const obs = new (globalThis as any).MutationObserver(() => {
            if (el.getAttribute('aria-pressed') === w) {
              obs.disconnect();
              resolve(performance.timeOrigin + performance.now());
            }
          });
          obs.observe(el, { attributes: true });
        }),
      want,
    );
    const clicked = await a.evaluate(() => {
      const t = performance.timeOrigin + performance.now();
      (globalThis as any).document.querySelector('[data-testid="blackout"]').click();
      return t;
    });
    samples.push((await seen) - clicked);
    await until(async () => (await a.getByTestId('blackout').getAttribute('aria-pressed')) === want, 'page A settled');
  }
  samples.sort((x, y) => x - y);
  figures.eventToDomMs = {
    p50: +samples[Math.floor(samples.length / 2)]!.toFixed(1),
    max: +samples[samples.length - 1]!.toFixed(1),
    n: samples.length,
    link: await b.getByTestId('link').innerText(),
  };
  const g = await api('GET', '/global');
  assert.is(g.blackout, false);
});

test('accessibility (axe-core): no serious or critical violations at either size; screenshots kept', async () => {
  for (const [page, name] of [
    [a, 'laptop-1280x800'],
    [b, 'phone-390x844'],
  ] as const) {
    // Evaluated through the debugger protocol: the page's CSP (rightly) refuses an injected inline script.
    await page.evaluate(await readFile(AXE, 'utf8'));
    const result = await page.evaluate(async () => {
      const r = await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] });
      return r.violations.map((v: any) => ({
        id: v.id,
        impact: v.impact,
        nodes: v.nodes.length,
        help: v.help,
        target: v.nodes[0]?.target,
      }));
    });
    const bad = result.filter((v: any) => v.impact === 'serious' || v.impact === 'critical');
    assert.equal(bad, [], `${name}: ${JSON.stringify(bad)}`);
    const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
    assert.ok(width <= (page === a ? LAPTOP.width : PHONE.width), `${name}: no horizontal scrolling (${width})`);
    // Touch targets: every button, select and text field at least 44 px tall.
    const small = await page.evaluate(() =>
      [...(globalThis as any).document.querySelectorAll('button, select, input:not([type=checkbox]):not([type=range]):not([type=color])')]
        .filter((e: any) => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
        .map((e: any) => e.outerHTML.slice(0, 80)),
    );
    assert.equal(small, [], `${name}: controls under 44 px`);
    console.log(`  screenshot ${await screenshot(page, name)}`);
  }
});

test(`browse: ${FILES} files in a virtualised list; scrolling frame times measured`, async () => {
  await a.getByTestId('browse-list').locator('.item[data-name="Media Files"], .item[data-name="Files"]').first().click();
  // Down to the folder that holds the clips (the media root under /files).
  await until(async () => {
    const items = a.getByTestId('browse-list').locator('.item');
    if ((await a.getByTestId('browse-list').getAttribute('aria-label')) && (await items.count()) > 0) {
      const first = await items.first().getAttribute('data-name');
      if (first?.startsWith('Clip') || first?.startsWith('clip')) return true;
      await items.first().click();
    }
    return false;
  }, 'the clips folder');
  const rows = await a.getByTestId('browse-list').locator('.vrow').count();
  const total = await a.getByTestId('browse-list').locator('.vrow').first().getAttribute('aria-setsize');
  assert.is(Number(total), FILES);
  assert.ok(rows < 40, `${rows} rows in the DOM for ${FILES} items`);
  const frames = await a.evaluate(
    () =>
      new Promise<number[]>((resolve) => {
        const list = (globalThis as any).document.querySelector('[data-testid="browse-list"]');
        const out: number[] = [];
        let last = performance.now();
        const step = (): void => {
          const now = performance.now();
          out.push(now - last);
          last = now;
          list.scrollTop += 800;
          if (list.scrollTop + list.clientHeight >= list.scrollHeight - 1 || out.length > 1000) resolve(out.slice(1));
          else (globalThis as any).requestAnimationFrame(step);
        };
        (globalThis as any).requestAnimationFrame(step);
      }),
  );
  frames.sort((x, y) => x - y);
  const pick = (q: number): number => +frames[Math.min(frames.length - 1, Math.floor(q * frames.length))]!.toFixed(1);
  figures.browseScroll = { items: FILES, frames: frames.length, p50: pick(0.5), p95: pick(0.95), max: pick(1) };
  // The last item is reachable and the list still answers.
  await a
    .getByTestId('browse-list')
    .locator(`.item[data-name="clip ${String(FILES - 1).padStart(4, '0')}"], .item[data-name="Clip ${String(FILES - 1).padStart(4, '0')}"]`)
    .waitFor();
});

test('figures', async () => {
  console.log(`  ui figures: ${JSON.stringify(figures)}`);
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(join(RESULTS_DIR, 'ui.json'), JSON.stringify(figures, null, 2));
});

test.run();
