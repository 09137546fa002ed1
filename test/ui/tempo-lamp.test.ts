// The tempo controls in Chromium against one server: after a tap (or a manual BPM) the Auto button returns the clock
// to the beat tracker (GET /tempo says auto, and the button goes away), and the beat lamp lights on the clock's own
// beats, extrapolated from its phase: each lit beat lines up with that beat's instant computed from GET /tempo.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { median } from '../helpers/beat-patterns.js';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { launch, loaded, open, type Opened } from './browser.js';

let s: TestServer;
let browser: Browser;
let o: Opened;
let page: Page;

const api = async (method: string, path: string, body?: unknown): Promise<any> => {
  const r = await req(method, `${s.base}/api/v1${path}`, { body, timeoutMs: 15000 });
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
  return r.json();
};
const until = (cond: () => Promise<boolean> | boolean, what: string): Promise<void> =>
  waitUntil(cond, 30_000, 50).catch(() => {
    throw new Error(`timed out: ${what}`);
  });

test.before(async () => {
  s = await startServer({ config: { audio: { input: null } } });
  browser = await launch();
  o = await open(browser, `${s.base}/ui/`);
  page = o.page;
  await loaded(page);
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
});

test('Auto is offered after a tap and returns the clock to the tracker', async () => {
  assert.is((await api('GET', '/tempo')).source, 'auto');
  const auto = page.getByTestId('tempo-auto');
  assert.is(await auto.count(), 0, 'no Auto button while the source is auto');
  await page.getByTestId('tempo-tap').click();
  await page.getByTestId('tempo-tap').click();
  await until(async () => (await api('GET', '/tempo')).source === 'tap', 'the taps make the source tap');
  await until(async () => (await auto.count()) === 1, 'the Auto button appears');
  await auto.click();
  await until(async () => (await api('GET', '/tempo')).source === 'auto', 'Auto makes the source auto');
  await until(async () => (await auto.count()) === 0, 'the Auto button goes away');
  await until(async () => (await page.getByTestId('tempo-source').textContent()) === 'auto', 'the page shows auto');
});

test('Auto is offered for a manual BPM too', async () => {
  await api('POST', '/tempo/bpm', { bpm: 100 });
  await until(async () => (await page.getByTestId('tempo-auto').count()) === 1, 'the Auto button appears');
  await page.getByTestId('tempo-auto').click();
  await until(async () => (await api('GET', '/tempo')).source === 'auto', 'Auto makes the source auto');
});

test("the lamp lights on the clock's beats, from its phase", async () => {
  await api('POST', '/tempo/bpm', { bpm: 100 });
  // Every lighting as the page recorded it: the beat and the page's epoch-ms instant.
  await page.evaluate(() => {
    const g = globalThis as any;
    const lamp = g.document.querySelector('[data-testid="beat-lamp"]');
    const seen: Array<{ beat: number; at: number }> = [];
    g.lampSeen = seen;
    new g.MutationObserver(() => {
      const at = Number(lamp.dataset.litAt);
      if (seen.length === 0 || seen[seen.length - 1]!.at !== at) seen.push({ beat: Number(lamp.dataset.beat), at });
    }).observe(lamp, { attributes: true, attributeFilter: ['data-lit-at'] });
  });
  const seen = (): Promise<Array<{ beat: number; at: number }>> => page.evaluate(() => (globalThis as any).lampSeen);
  await until(async () => (await seen()).length >= 10, 'ten beats lit');
  const lit = await seen();
  // A manual clock is one straight line: any reading gives every beat's instant.
  const v = await api('GET', '/tempo');
  assert.is(v.bpm, 100);
  const instant = (beat: number): number => v.at + ((beat - v.position) * 60_000) / v.bpm;
  const errors = lit.map((l) => l.at - instant(l.beat));
  const shown = errors.map((e) => e.toFixed(0)).join(', ');
  // Lit at the beat, not a beat early or late: each lighting is nearer its own beat than any other (600 ms apart).
  for (const e of errors) assert.ok(e > -300 && e < 300, `lamp vs beat (ms): ${shown}`);
  // And on the whole close to it: a generous bound, far below the beat, for a loaded box.
  assert.ok(Math.abs(median(errors)) < 150, `lamp vs beat (ms): ${shown}`);
  // Whole beats in order: the lamp counts the clock's beats, not events.
  for (let i = 1; i < lit.length; i++) assert.ok(lit[i]!.beat > lit[i - 1]!.beat, `beats ${lit.map((l) => l.beat).join(' ')}`);
});

test.run();
