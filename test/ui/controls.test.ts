// Effect input controls in Chromium, one per ISF input type, against effects that have them (strobe: bool, float,
// long, color, event; tile: point2D), each checked with GET /effects/{index}; and values changed over HTTP shown in
// an open effect through the `params` topic, with no other change to the chain.
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
  const r = await req(method, `${s.base}/api/v1${path}`, { body, timeoutMs: 15000 });
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
  return r.json();
};
const until = (cond: () => Promise<boolean> | boolean, what: string): Promise<void> =>
  waitUntil(cond, 20000, 100).catch(() => {
    throw new Error(`timed out: ${what}`);
  });
const value = async (index: number, name: string): Promise<any> =>
  (await api('GET', `/effects/${index}`)).inputs.find((i: any) => i.name === name).value;
const near = (a: number, b: number, eps = 1e-3): boolean => Math.abs(a - b) < eps;

test.before(async () => {
  s = await startServer();
  browser = await launch();
  await api('POST', '/effects/add', { type: 'strobe' });
  await api('POST', '/effects/add', { type: 'tile' });
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
});

test('parameters show without a click; ⚙ folds them, the fold outlives a reload, and ⚙ unfolds them', async () => {
  o = await open(browser, `${s.base}/ui/`);
  page = o.page;
  await loaded(page);
  await page.locator('#fx1-rate').waitFor();
  await page.locator('#fx2-count').waitFor();
  const gear = (name: string) => page.getByRole('button', { name: `Parameters of ${name}` });
  assert.is(await gear('Strobe').getAttribute('aria-expanded'), 'true');
  await gear('Tile').click();
  await page.locator('#fx2-count').waitFor({ state: 'detached' });
  assert.is(await gear('Tile').getAttribute('aria-expanded'), 'false');
  await page.reload();
  await loaded(page);
  await page.locator('#fx1-rate').waitFor();
  await until(async () => (await gear('Tile').getAttribute('aria-expanded')) === 'false', 'Tile still folded');
  assert.is(await page.locator('#fx2-count').count(), 0, 'no Tile field while folded');
  await gear('Tile').click();
  await page.locator('#fx2-count').waitFor();
  assert.is(await gear('Tile').getAttribute('aria-expanded'), 'true');
});

test('float slider: arrow keys step it, End goes to MAX; the server holds what the slider shows', async () => {
  const slider = page.locator('#fx1-rate');
  const before = await value(1, 'rate');
  await slider.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await until(async () => (await value(1, 'rate')) > before, 'rate raised');
  await until(async () => near(await value(1, 'rate'), Number(await slider.inputValue())), 'server equals the slider');
  await page.keyboard.press('End');
  await until(async () => (await value(1, 'rate')) === 20, 'rate at MAX');
  await page.keyboard.press('ArrowLeft');
  await until(async () => (await value(1, 'rate')) < 20, 'ArrowLeft lowers it');
});

test('bool checkbox: click and Space', async () => {
  const box = page.locator('#fx1-running');
  assert.is(await box.isChecked(), true);
  // A click, not uncheck(): an earlier change's params push may still re-render the box before this one lands.
  await box.click();
  await until(async () => (await value(1, 'running')) === false, 'running off');
  await until(async () => !(await box.isChecked()), 'shown off');
  await box.press('Space');
  await until(async () => (await value(1, 'running')) === true, 'running on by Space');
});

test('long select: the labels, and the chosen value on the server', async () => {
  const select = page.locator('#fx1-mode');
  assert.equal(await select.locator('option').allInnerTexts(), ['Color Flash', 'Blackout', 'Invert']);
  await select.selectOption({ label: 'Invert' });
  await until(async () => (await value(1, 'mode')) === 2, 'mode 2');
  await select.focus();
  await page.keyboard.press('ArrowUp');
  await until(async () => (await value(1, 'mode')) === 1, 'mode 1 by ArrowUp');
});

test('color picker: the chosen colour on the server', async () => {
  await page.locator('#fx1-flashColor').fill('#00ff40');
  await until(async () => {
    const v = await value(1, 'flashColor');
    return near(v[0], 0) && near(v[1], 1) && near(v[2], 64 / 255) && near(v[3], 1);
  }, 'flash colour green');
});

test('event button: fires the event (a POST the server accepts)', async () => {
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/v1/effects/params') && r.request().postDataJSON()?.values?.flash === true),
    page.getByRole('button', { name: 'Flash', exact: true }).click(),
  ]);
  assert.is(answer.status(), 200);
  assert.equal(answer.request().postDataJSON(), { index: 1, values: { flash: true } });
  // An event fires for one frame and is not stored: nothing else changed.
  assert.is(await value(1, 'mode'), 1);
});

test('point2D XY pad: a click sets both axes (y up), arrow keys step them', async () => {
  const pad = page.getByRole('slider', { name: /^Scroll/ });
  const box = (await pad.boundingBox())!;
  await pad.click({ position: { x: box.width * 0.75, y: box.height * 0.25 } });
  // MIN [-4,-4], MAX [4,4]: three quarters across is x = 2, a quarter down is y = 2.
  await until(async () => {
    const [x, y] = await value(2, 'scroll');
    return near(x, 2, 0.2) && near(y, 2, 0.2);
  }, 'scroll at the clicked point');
  const [x0, y0] = await value(2, 'scroll');
  await pad.press('ArrowLeft');
  await until(async () => near((await value(2, 'scroll'))[0], x0 - 0.16), 'ArrowLeft: x down 2% of the range');
  await pad.press('ArrowUp');
  await until(async () => near((await value(2, 'scroll'))[1], y0 + 0.16), 'ArrowUp: y up 2% of the range');
  assert.match((await pad.getAttribute('aria-valuetext')) ?? '', /^x -?\d+\.\d\d, y -?\d+\.\d\d$/);
});

test('values changed over HTTP show in the open effect at once (params topic); Reset from the page', async () => {
  await api('POST', '/effects/params', { index: 2, values: { count: 9, mirrorTiles: true } });
  await api('POST', '/effects/params', { index: 1, values: { mode: 0 } });
  // Nothing else changes in the chain: the values arrive through the params topic alone.
  await until(async () => (await page.locator('#fx2-count').inputValue()) === '9', 'count 9 shown');
  await until(() => page.locator('#fx2-mirrorTiles').isChecked(), 'mirror shown');
  await until(async () => (await page.locator('#fx1-mode').inputValue()) === '0', 'mode 0 shown');
  await api('POST', '/effects/enabled', { index: 1, enabled: false });
  await until(async () => !(await page.getByTestId('enabled-1').isChecked()), 'strobe shown disabled');
  await page.locator('li.fx[data-index="2"]').getByRole('button', { name: 'Reset', exact: true }).click();
  await until(async () => (await value(2, 'count')) === 2 && (await value(2, 'mirrorTiles')) === false, 'tile back to defaults');
  await until(async () => (await page.locator('#fx2-count').inputValue()) === '2', 'defaults shown');
  assert.equal(o.errors, []);
});

test.run();
