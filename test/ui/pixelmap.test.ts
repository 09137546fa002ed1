// The pixel-mapping panel in Chromium at phone width, against a server sending to loopback receivers: the panel opens
// on the fixtures added over HTTP, each drawn over the program as its kind; the form adds a strip that is listed and
// drawn and then selected; a universe out of range is refused with the field named beside the form and marked; Edit
// moves a pixel; the test mode buttons land in GET /pixelmap and the sender's rate shows; remove takes a fixture off
// the list and the drawing. A second server with pixel mapping off in its config says so and still takes a fixture.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { Receiver } from '../pixelmap/receivers.js';
import { ARTEFACTS, launch, loaded, open, PHONE, type Opened, showTab } from './browser.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const DEST = '127.0.0.1';
let s: TestServer;
let off: TestServer;
let artnet: Receiver;
let sacn: Receiver;
let browser: Browser;
let o: Opened;
let page: Page;

const api = async (server: TestServer, method: string, p: string, body?: unknown) => {
  const r = await req(method, `${server.base}/api/v1${p}`, { body, timeoutMs: 15000 });
  assert.ok(r.status < 300, `${method} ${p}: ${r.status} ${r.text}`);
  return r.json();
};
const fixtures = async (server = s): Promise<any[]> => (await api(server, 'GET', '/pixelmap')).fixtures;
const until = (cond: () => Promise<boolean> | boolean, what: string): Promise<void> =>
  waitUntil(cond, 30_000, 50).catch(() => {
    throw new Error(`timed out: ${what}`);
  });
const row = (id: string, p = page) => p.locator(`[data-testid="pm-list"] li[data-id="${id}"]`);
const shape = (id: string, p = page) => p.locator(`[data-testid="pm-overlay"] g[data-id="${id}"]`);
/** Opens the folded panel and waits for its list to be read. */
async function openPanel(p: Page): Promise<void> {
  await p.getByTestId('pm-toggle').click();
  await p.getByTestId('pm-form').waitFor();
}

test.before(async () => {
  try {
    artnet = await Receiver.open('artnet', DEST);
    sacn = await Receiver.open('sacn', DEST);
    const render = { width: 160, height: 90, fps: 20 };
    const pixelmap = { destinations: [DEST], artnetPort: artnet.port, sacnPort: sacn.port, rateHz: 10 };
    [s, off] = await Promise.all([
      startServer({ config: { render, pixelmap: { ...pixelmap, enabled: true } } }),
      startServer({ config: { render, pixelmap: { ...pixelmap, enabled: false } } }),
    ]);
    const matrix = { kind: 'matrix', x: 0.1, y: 0.1, w: 0.3, h: 0.4, cols: 4, rows: 3, serpentine: true, start: 'top-left' };
    await api(s, 'POST', '/pixelmap/fixtures/add', { name: 'Wall', geometry: matrix, destination: DEST, protocol: 'sacn' });
    await api(s, 'POST', '/pixelmap/fixtures/add', {
      name: 'Spot',
      geometry: { kind: 'pixel', x: 0.5, y: 0.8 },
      destination: DEST,
      universe: 9,
    });
    browser = await launch();
    o = await open(browser, `${s.base}/ui/`, PHONE);
    page = o.page;
    // Remove asks first, as deleting a cue does.
    page.on('dialog', (d) => void d.accept());
    await loaded(page);
    await showTab(page, 'outputs');
  } catch (err) {
    // uvu does not print a failing hook's error.
    console.error('setup failed:', err);
    throw err;
  }
});
test.after(async () => {
  await browser?.close();
  await Promise.all([s?.cleanup(), off?.cleanup()]);
  artnet?.close();
  sacn?.close();
});

test('folded at first; opened, it lists the fixtures and draws each as its kind over the program', async () => {
  assert.is(await page.getByTestId('pm-form').isVisible(), false, 'folded');
  await openPanel(page);
  await until(async () => (await page.locator('[data-testid="pm-list"] li').count()) === 2, 'two rows');
  assert.match((await row('wall').textContent()) ?? '', /wall.*matrix · sACN 127\.0\.0\.1 · 1\.1 · 12 pixels/);
  assert.match((await row('spot').textContent()) ?? '', /spot.*pixel · Art-Net 127\.0\.0\.1 · 9\.1 · 1 pixel(?!s)/);
  assert.is(await shape('wall').locator('rect').count(), 1, 'the matrix is a rectangle');
  assert.is(await shape('spot').locator('circle').count(), 1, 'the pixel is a dot');
  assert.is(await shape('wall').locator('text').textContent(), 'wall', 'labelled with its id');
  assert.is(await page.getByTestId('pm-disabled').count(), 0, 'enabled in this config');
  // The program picture under the drawing comes from the preview stream.
  await until(async () => ((await page.getByTestId('pm-program').getAttribute('src')) ?? '').startsWith('blob:'), 'a program frame');
});

test('the form adds a strip: listed, drawn as a line, and highlighted when selected', async () => {
  await page.getByTestId('pm-name').fill('Bar');
  await page.getByTestId('pm-kind').selectOption('strip');
  await page.getByTestId('pm-x1').fill('0.2');
  await page.getByTestId('pm-y1').fill('0.25');
  await page.getByTestId('pm-x2').fill('0.8');
  await page.getByTestId('pm-y2').fill('0.25');
  await page.getByTestId('pm-pixels').fill('200');
  await page.getByTestId('pm-universe').fill('3');
  await page.getByTestId('pm-address').fill('7');
  await page.getByTestId('pm-colorOrder').selectOption('GRB');
  await page.getByTestId('pm-submit').click();
  let bar: any;
  await until(async () => (bar = (await fixtures()).find((f) => f.id === 'bar')) !== undefined, 'bar added');
  assert.equal(bar.geometry, { kind: 'strip', x1: 0.2, y1: 0.25, x2: 0.8, y2: 0.25, pixels: 200 });
  assert.is(bar.protocol, 'artnet');
  assert.is(bar.colorOrder, 'GRB');
  // 200 RGB pixels from channel 7: 168 in universe 3, the rest into universe 4 up to channel 96.
  await until(
    async () => /bar.*strip · Art-Net 127\.0\.0\.1 · 3\.7–4\.96 · 200 pixels/.test((await row('bar').textContent()) ?? ''),
    'bar listed',
  );
  const line = shape('bar').locator('line');
  await line.waitFor({ state: 'attached' });
  const box = (await page.getByTestId('pm-overlay').getAttribute('viewBox'))!.split(' ').map(Number);
  assert.ok(Math.abs(Number(await line.getAttribute('x1')) - 0.2 * box[2]!) < 1e-6, 'the line starts at x1');
  assert.ok(Math.abs(Number(await line.getAttribute('y2')) - 0.25 * box[3]!) < 1e-6, 'the line ends at y2');
  // The list may be read again (a status push) before the page has the add's own answer, which empties the name.
  await until(async () => (await page.getByTestId('pm-name').inputValue()) === '', 'the name emptied for the next one');

  await page.getByRole('button', { name: 'Select fixture bar' }).click();
  await until(async () => (await row('bar').getAttribute('class')) === 'sel', 'bar highlighted in the list');
  assert.match((await shape('bar').getAttribute('class')) ?? '', /\bsel\b/);
  assert.not.match((await shape('wall').getAttribute('class')) ?? '', /\bsel\b/);
});

test('a universe out of range is refused with the field named beside the form; nothing is added', async () => {
  await page.getByTestId('pm-name').fill('Far');
  await page.getByTestId('pm-kind').selectOption('pixel');
  await page.getByTestId('pm-universe').fill('40000');
  await page.getByTestId('pm-submit').click();
  const error = page.getByTestId('pm-error');
  await error.waitFor();
  assert.match((await error.textContent()) ?? '', /^universe 40000 is outside Art-Net's 0 to 32767/);
  assert.is(await page.getByTestId('pm-universe').getAttribute('aria-invalid'), 'true', 'the field is marked');
  assert.is((await fixtures()).length, 3, 'nothing added');
  // Fixed, it goes through and the message goes away.
  await page.getByTestId('pm-universe').fill('20');
  await page.getByTestId('pm-submit').click();
  await until(async () => (await fixtures()).some((f) => f.id === 'far' && f.universe === 20), 'far added');
  await until(async () => (await error.count()) === 0, 'the error cleared');
});

test('Edit loads a fixture into the form and saves the change', async () => {
  await page.getByRole('button', { name: 'Edit fixture spot' }).click();
  await until(async () => (await page.getByTestId('pm-name').inputValue()) === 'Spot', 'spot in the form');
  await page.getByTestId('pm-x').fill('0.75');
  await page.getByTestId('pm-submit').click();
  await until(async () => (await fixtures()).find((f) => f.id === 'spot')?.geometry.x === 0.75, 'spot moved');
  const box = (await page.getByTestId('pm-overlay').getAttribute('viewBox'))!.split(' ').map(Number);
  const cx = shape('spot').locator('circle');
  await until(async () => Math.abs(Number(await cx.getAttribute('cx')) - 0.75 * box[2]!) < 1e-6, 'the dot moved');
  await until(async () => (await page.getByTestId('pm-cancel').count()) === 0, 'back to adding');
});

test('test mode buttons land in GET /pixelmap; the sender rate and universes show', async () => {
  for (const mode of ['white', 'each', 'off']) {
    await page.getByTestId(`pm-test-${mode}`).click();
    await until(async () => (await api(s, 'GET', '/pixelmap')).test === mode, `test ${mode}`);
    await until(async () => (await page.getByTestId(`pm-test-${mode}`).getAttribute('aria-pressed')) === 'true', `${mode} pressed`);
  }
  // wall (sACN 1), spot (Art-Net 9), bar (Art-Net 3 and 4), far (Art-Net 20).
  await until(
    async () => /[1-9]\d* packets\/s · 5 universes/.test((await page.getByTestId('pm-sender').textContent()) ?? ''),
    'rate shown',
  );
  await until(() => artnet.data(3).length > 0 && sacn.data(1).length > 0, 'both receivers got data');
});

test('remove takes a fixture off the list and the drawing', async () => {
  await page.getByRole('button', { name: 'Remove fixture bar' }).click();
  await until(async () => !(await fixtures()).some((f) => f.id === 'bar'), 'bar removed');
  await until(async () => (await row('bar').count()) === 0 && (await shape('bar').count()) === 0, 'bar gone from the page');
  assert.is(await row('wall').count(), 1);
});

test('phone width: no horizontal scrolling, no serious axe finding in the open panel, no page errors beyond the refused add', async () => {
  // Through the debugger protocol: the page's CSP (rightly) refuses an injected inline script.
  await page.evaluate(await readFile(AXE, 'utf8'));
  const found = await page.evaluate(async () => {
    const g = globalThis as any;
    const r = await g.axe.run(g.document.querySelector('[data-testid="pixelmap-panel"]'), { resultTypes: ['violations'] });
    return r.violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical').map((v: any) => `${v.id}: ${v.help}`);
  });
  assert.equal(found, []);
  const small = await page.evaluate(() =>
    [...(globalThis as any).document.querySelectorAll('[data-testid="pixelmap-panel"] :is(button, select, input:not([type=checkbox]))')]
      .filter((e: any) => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
      .map((e: any) => e.outerHTML.slice(0, 80)),
  );
  assert.equal(small, [], 'controls under 44 px');
  await mkdir(ARTEFACTS, { recursive: true });
  // The sticky status bar would cover the panel's top in the picture.
  await page.evaluate(() => ((globalThis as any).document.querySelector('.statusbar').style.position = 'static'));
  await page.getByTestId('pixelmap-panel').screenshot({ path: join(ARTEFACTS, 'pixelmap-panel.png') });
  const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
  assert.ok(width <= PHONE.width, `scroll width ${width}`);
  assert.equal(o.errors, []);
  assert.equal(o.failed, [`400 ${s.base}/api/v1/pixelmap/fixtures/add`]);
  assert.ok(
    o.consoleErrors.every((e) => e.includes('status of 400')),
    o.consoleErrors.join('\n'),
  );
});

test('pixel mapping off in the config: the panel says so, and the patch can still be edited', async () => {
  const second = await open(browser, `${off.base}/ui/`, PHONE);
  try {
    await loaded(second.page);
    await showTab(second.page, 'outputs');
    await openPanel(second.page);
    await second.page.getByTestId('pm-disabled').waitFor();
    await second.page.getByTestId('pm-name').fill('Dark');
    await second.page.getByTestId('pm-submit').click();
    await until(async () => (await fixtures(off)).some((f) => f.id === 'dark'), 'dark added');
    await until(async () => (await row('dark', second.page).count()) === 1, 'dark listed');
    assert.equal(second.errors, []);
  } finally {
    await second.page.context().close();
  }
});

test.run();
