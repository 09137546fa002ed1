// The modulation control in Chromium against a running server: the ∿ button beside an effect's slider starts an LFO
// (GET /effects/{index} shows it), the live marker moves with the applied value, Freeze holds it and Release lets it
// run, a steps modulator can be applied, Remove takes it away; a freeze made elsewhere shows after a reload; a
// point2D's and a color's components each take their own modulator.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { launch, loaded, open, type Opened } from './browser.js';

let s: TestServer;
let browser: Browser;
let o: Opened;
let page: Page;

const api = async (method: string, path: string, body?: unknown): Promise<any> => {
  const r = await req(method, `${s.base}/api/v1${path}`, { body, timeoutMs: 20_000 });
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
  return r.json();
};
const until = (cond: () => Promise<boolean> | boolean, what: string): Promise<void> =>
  waitUntil(cond, 60_000, 50).catch(() => {
    throw new Error(`timed out: ${what}`);
  });
const brightness = async (): Promise<any> => (await api('GET', '/effects/1')).inputs.find((i: any) => i.name === 'brightness');
const marker = () => page.getByTestId('fx1-brightness-live');
const frames = async (): Promise<number> => (await api('GET', '/status')).render.frames;
/** The live marker's values, one read after each of `n` rounds of a few frames drawn. */
async function markerValues(n: number): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let i = 0; i < n; i++) {
    const f0 = await frames();
    await until(async () => (await frames()) >= f0 + 4, 'frames drawn');
    seen.add((await marker().getAttribute('data-value')) ?? '');
  }
  return seen;
}

test.before(async () => {
  s = await startServer({ config: { live: { test: [], streams: [], v4l2: { enabled: false } } } });
  browser = await launch();
  await api('POST', '/effects/add', { type: 'brightness_contrast' });
  await api('POST', '/effects/add', { type: 'tile' });
  await api('POST', '/effects/add', { type: 'strobe' });
  o = await open(browser, `${s.base}/ui/`);
  page = o.page;
  await loaded(page);
  // Parameters show without a click.
  await page.locator('#fx1-brightness').waitFor();
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
});

test('the ∿ control starts an LFO on the input; the server shows it', async () => {
  assert.equal(await marker().count(), 0, 'no live marker before a modulator');
  await page.getByTestId('fx1-brightness-mod').click();
  await page.getByTestId('fx1-brightness-mod-kind').selectOption('lfo');
  await page.getByTestId('fx1-brightness-mod-shape').selectOption('triangle');
  await page.getByTestId('fx1-brightness-mod-rate').selectOption('1/4');
  await page.getByTestId('fx1-brightness-mod-apply').click();
  await until(async () => (await brightness()).modulator?.kind === 'lfo', 'the modulator on the server');
  const m = (await brightness()).modulator;
  assert.equal([m.shape, m.rate, m.amount], ['triangle', '1/4', 0.5]);
  assert.equal((await brightness()).value, 0, 'the set value stays');
});

test('the live marker moves with the applied value', async () => {
  await marker().waitFor();
  await until(async () => (await markerValues(4)).size >= 3, 'the marker takes several values');
  const v = Number(await marker().getAttribute('data-value'));
  assert.ok(v >= -1 && v <= 1, `live ${v}`);
});

test('Freeze holds the marker still and the server frozen; Release lets it move again', async () => {
  const freeze = page.getByTestId('mod-freeze');
  assert.equal(await freeze.textContent(), 'Freeze');
  await freeze.click();
  await until(async () => (await api('GET', '/modulation')).frozen === true, 'frozen on the server');
  await until(async () => (await freeze.textContent()) === 'Release', 'the button offers Release');
  // The value reported before the freeze landed may still arrive; after that it stays.
  await markerValues(2);
  assert.equal((await markerValues(5)).size, 1, 'the frozen marker does not move');
  await freeze.click();
  await until(async () => (await api('GET', '/modulation')).frozen === false, 'released on the server');
  await until(async () => (await markerValues(4)).size >= 3, 'the marker moves again');
});

test('a freeze made elsewhere shows after a reload', async () => {
  assert.equal((await api('POST', '/actions/modulation.freeze')).result, { frozen: true });
  await page.reload();
  await loaded(page);
  await until(async () => (await page.getByTestId('mod-freeze').textContent()) === 'Release', 'the button offers Release');
  await page.getByTestId('mod-freeze').click();
  await until(async () => (await api('GET', '/modulation')).frozen === false, 'released on the server');
  await page.locator('#fx1-brightness').waitFor();
});

test('a steps modulator is applied from the editor; Remove takes the modulator away', async () => {
  await page.getByTestId('fx1-brightness-mod').click();
  await page.getByTestId('fx1-brightness-mod-kind').selectOption('steps');
  await page.getByTestId('fx1-brightness-mod-steps').fill('0, 1, 0.25');
  await page.getByTestId('fx1-brightness-mod-rate').selectOption('1/8');
  await page.getByTestId('fx1-brightness-mod-apply').click();
  await until(async () => (await brightness()).modulator?.kind === 'steps', 'steps on the server');
  const m = (await brightness()).modulator;
  assert.equal([m.values, m.rate], [[0, 1, 0.25], '1/8']);
  await page.getByTestId('fx1-brightness-mod-remove').click();
  await until(async () => (await brightness()).modulator === null, 'removed on the server');
  await until(async () => (await marker().count()) === 0, 'the live marker is gone');
  assert.equal((await api('GET', '/modulation')).count, 0);
  assert.equal(o.errors, []);
  assert.equal(o.consoleErrors, []);
});

test('a point2D component and a color component each take a modulator of their own', async () => {
  await page.getByTestId('fx2-scroll-x-mod').click();
  await page.getByTestId('fx2-scroll-x-mod-apply').click();
  await page.getByTestId('fx3-flashColor-hue-mod').click();
  await page.getByTestId('fx3-flashColor-hue-mod-kind').selectOption('beat');
  await page.getByTestId('fx3-flashColor-hue-mod-apply').click();
  const input = async (index: number, name: string) => (await api('GET', `/effects/${index}`)).inputs.find((i: any) => i.name === name);
  await until(async () => (await input(2, 'scroll')).modulator?.x?.kind === 'lfo', 'scroll.x modulated');
  await until(async () => (await input(3, 'flashColor')).modulator?.hue?.kind === 'beat', 'flashColor.hue modulated');
  assert.equal(Object.keys((await input(2, 'scroll')).modulator), ['x']);
  assert.equal(Object.keys((await input(3, 'flashColor')).modulator), ['hue']);
  assert.equal((await api('GET', '/modulation')).count, 2);
  await page.getByTestId('fx2-scroll-x-mod-remove').click();
  await page.getByTestId('fx3-flashColor-hue-mod-remove').click();
  await until(async () => (await api('GET', '/modulation')).count === 0, 'both removed');
  assert.equal(o.errors, []);
  assert.equal(o.consoleErrors, []);
});

test.run();
