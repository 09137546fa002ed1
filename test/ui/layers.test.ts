// Layer strips and the scene row in Chromium against a server with solid-colour presets: the strips follow the stack
// top first; the page adds a layer; the opacity fader, blend select, mute, solo and select change GET /layers; changes
// made elsewhere arrive by the topics; a scene saved from the page gets a button whose tap recalls it with the mixer's
// transition, and × deletes one; no console errors; remove.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { patientReq, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';
import { launch, loaded, open, PHONE, type Opened, showTab } from './browser.js';

let s: TestServer;
let browser: Browser;
let o: Opened;
let page: Page;

const api = async (method: string, path: string, body?: unknown): Promise<any> => {
  const r = await patientReq(method, `${s.base}/api/v1${path}`, { body, timeoutMs: 20000 });
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
  return r.json();
};
const stack = (): Promise<any> => api('GET', '/layers');
const until = (cond: () => Promise<boolean> | boolean, what: string): Promise<void> =>
  waitUntil(cond, 45_000, 50).catch(() => {
    throw new Error(`timed out: ${what}`);
  });
const strips = () => page.getByTestId('layer-strip');
const strip = (n: number) => page.locator(`[data-testid="layer-strip"][data-layer="${n}"]`);
/** What a scene restores of each layer, bottom to top. */
const look = (l: any) =>
  l.layers.map((x: any) => ({ source: x.source.id, opacity: x.opacity, blend: x.blend, mute: x.mute, solo: x.solo }));
const SOLID = (name: string, rgb: number[]) => JSON.stringify({ name, source: 'solid_color', inputs: { color: [...rgb, 1] } });

test.before(async () => {
  const dataDir = await tempDir('vjd-ui-layers-');
  const presets = join(dataDir, 'presets');
  await mkdir(presets, { recursive: true });
  await writeFile(join(presets, 'red.json'), SOLID('Red', [1, 0, 0]));
  await writeFile(join(presets, 'blue.json'), SOLID('Blue', [0, 0, 1]));
  s = await startServer({
    dataDir,
    config: {
      presets: { dirs: [presets] },
      render: { width: 160, height: 120, maxLayers: 4 },
      live: { test: [], streams: [], v4l2: { enabled: false } },
    },
  });
  await api('POST', '/sources/select', { id: 'preset:red' });
  await api('POST', '/layers/add', { source: 'preset:blue', opacity: 0.5 });
  browser = await launch();
  o = await open(browser, `${s.base}/ui/`, PHONE);
  page = o.page;
  await loaded(page);
  await showTab(page, 'layers');
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
});

test('one strip per layer, top layer first, with its source, opacity and picture', async () => {
  await until(async () => (await strips().count()) === 2, 'two strips');
  assert.is(await strips().nth(0).getAttribute('data-layer'), '2', 'the top layer comes first');
  assert.is(await strips().nth(1).getAttribute('data-layer'), '1');
  assert.is(await strip(2).getByTestId('layer-source').textContent(), 'Blue');
  assert.is(await strip(1).getByTestId('layer-source').textContent(), 'Red');
  assert.is(await strip(2).getByTestId('layer-opacity').inputValue(), '0.5');
  // Pictures are asked for only while the strips are on screen: the panel is below the fold on a phone.
  assert.not.ok(
    o.urls.some((u) => u.includes('/thumbnails/layer/')),
    'no layer picture asked for off screen',
  );
  await page.getByTestId('layers-panel').scrollIntoViewIfNeeded();
  for (const n of [1, 2]) await until(async () => (await strip(n).locator('.thumb img').count()) === 1, `layer ${n} picture`);
  await until(async () => o.urls.some((u) => u.includes('/thumbnails/layer/2?')), 'the picture comes from the layer route');
});

test('the add button adds a layer and its strip', async () => {
  await page.getByTestId('layer-add').click();
  await until(async () => (await stack()).layers.length === 3, 'GET /layers has three layers');
  await until(async () => (await strips().count()) === 3, 'three strips');
  assert.is(await strips().nth(0).getAttribute('data-layer'), '3');
});

test('dragging the opacity fader sets the layer opacity, the released value last', async () => {
  const fader = strip(2).getByTestId('layer-opacity');
  await fader.scrollIntoViewIfNeeded();
  const box = await fader.boundingBox();
  assert.ok(box && box.width > 60, `fader ${JSON.stringify(box)}`);
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.5, y);
  await page.mouse.down();
  for (const f of [0.45, 0.35, 0.25, 0.15]) await page.mouse.move(box.x + box.width * f, y, { steps: 3 });
  await page.mouse.up();
  const shown = Number(await fader.inputValue());
  assert.ok(shown < 0.3, `the fader moved down: ${shown}`);
  await until(async () => (await stack()).layers[1].opacity === shown, `GET /layers opacity is ${shown}`);
  await until(async () => Number(await fader.inputValue()) === shown, 'the fader stays there');
});

test('the blend select sets the blend mode', async () => {
  const select = strip(2).getByTestId('layer-blend');
  const modes = await select.locator('option').allTextContents();
  assert.equal(modes, (await stack()).blends);
  await select.selectOption('add');
  await until(async () => (await stack()).layers[1].blend === 'add', 'GET /layers blend add');
  await until(async () => (await select.inputValue()) === 'add', 'the select shows add');
});

test('mute toggles', async () => {
  const mute = strip(2).getByTestId('layer-mute');
  await mute.click();
  await until(async () => (await stack()).layers[1].mute === true, 'muted');
  await until(async () => (await mute.getAttribute('aria-pressed')) === 'true', 'shown muted');
  await mute.click();
  await until(async () => (await stack()).layers[1].mute === false, 'unmuted');
  await until(async () => (await mute.getAttribute('aria-pressed')) === 'false', 'shown unmuted');
});

test('solo toggles', async () => {
  const solo = strip(2).getByTestId('layer-solo');
  await solo.click();
  await until(async () => (await stack()).layers[1].solo === true, 'solo on');
  await until(async () => (await solo.getAttribute('aria-pressed')) === 'true', 'shown solo');
  await solo.click();
  await until(async () => (await stack()).layers[1].solo === false, 'solo off');
  await until(async () => (await solo.getAttribute('aria-pressed')) === 'false', 'shown not solo');
});

test('changes made elsewhere reach the strips through the layers topic', async () => {
  const subscribed = (topic: string) =>
    o.wsSent.some((f) => f.includes('"subscribe"') && (JSON.parse(f).topics as string[]).includes(topic));
  await until(() => subscribed('layers') && subscribed('scenes'), 'the page subscribes to layers and scenes');
  await api('POST', '/layers/opacity', { layer: 3, value: 0.25 });
  await until(async () => (await strip(3).getByTestId('layer-opacity').inputValue()) === '0.25', 'the fader follows');
  await api('POST', '/layers/name', { layer: 3, name: 'Overlay' });
  await until(async () => (await strip(3).getByTestId('layer-name').textContent()) === 'Overlay', 'the name follows');
});

test('select highlights the layer and GET /layers.selected follows', async () => {
  assert.is((await stack()).selected, 1);
  assert.is(await strip(1).getAttribute('aria-current'), 'true');
  await strip(2).getByTestId('layer-select').click();
  await until(async () => (await stack()).selected === 2, 'GET /layers selected 2');
  await until(async () => (await strip(2).getAttribute('class'))?.includes('selected') ?? false, 'strip 2 highlighted');
  assert.is(await strip(1).getAttribute('aria-current'), null);
  assert.ok(!(await strip(1).getAttribute('class'))?.includes('selected'));
});

let saved: any;
test('a scene saved from the page is listed and gets a button', async () => {
  saved = look(await stack());
  await page.getByTestId('scene-name').fill('Look A');
  await page.getByTestId('scene-save').click();
  await until(async () => (await api('GET', '/scenes')).scenes.some((x: any) => x.name === 'Look A'), 'GET /scenes lists it');
  const button = page.locator('[data-testid="scene-button"][data-name="Look A"]');
  await until(async () => (await button.count()) === 1, 'the scene button shows');
  await until(async () => (await button.getByTestId('scene-thumb').count()) === 1, 'with its picture');
  await until(async () => (await page.getByTestId('scene-name').inputValue()) === '', 'the name field empties');
});

test("tapping the scene recalls it with the mixer's transition", async () => {
  await api('POST', '/layers/opacity', { layer: 2, value: 1 });
  await api('POST', '/layers/blend', { layer: 2, mode: 'normal' });
  await api('POST', '/layers/mute', { layer: 1, enabled: true });
  await api('POST', '/layers/2/sources/select', { id: 'preset:red' });
  assert.not.equal(look(await stack()), saved);
  await until(async () => (await strip(2).getByTestId('layer-source').textContent()) === 'Red', 'the strip shows the change');
  const mix = await api('GET', '/mix');
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/v1/scenes/recall'));
  await page.locator('[data-testid="scene-button"][data-name="Look A"]').click();
  const body = (await sent).postDataJSON();
  assert.is(body.transition, mix.transition.type);
  assert.is(body.durationMs, mix.transition.durationMs);
  await until(async () => JSON.stringify(look(await stack())) === JSON.stringify(saved), 'GET /layers matches the scene');
  await until(async () => (await strip(2).getByTestId('layer-source').textContent()) === 'Blue', 'the strip shows the recalled source');
});

test('a scene deleted from the page goes from GET /scenes and the row', async () => {
  await api('POST', '/scenes/save', { name: 'Spare' });
  const button = page.locator('[data-testid="scene-button"][data-name="Spare"]');
  await until(async () => (await button.count()) === 1, 'the saved scene shows');
  page.once('dialog', (d) => void d.accept());
  await page.locator('li.scene', { has: button }).getByTestId('scene-delete').click();
  await until(async () => !(await api('GET', '/scenes')).scenes.some((x: any) => x.name === 'Spare'), 'GET /scenes drops it');
  await until(async () => (await button.count()) === 0, 'its button goes');
  assert.is(await page.locator('[data-testid="scene-button"][data-name="Look A"]').count(), 1, 'the other scene stays');
});

test('the panels fit a phone and the page had no errors', async () => {
  for (const id of ['layers-panel', 'scenes-panel']) {
    const box = await page.getByTestId(id).boundingBox();
    assert.ok(box && box.width <= PHONE.width, `${id} width ${box?.width}`);
  }
  const overflow = await page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return (root.scrollWidth as number) - (root.clientWidth as number);
  });
  assert.equal(overflow, 0);
  assert.equal(o.errors, []);
  assert.equal(o.consoleErrors, []);
  assert.equal(o.failed, []);
});

test('remove asks, then removes the layer and its strip', async () => {
  const before = (await stack()).layers.length;
  page.once('dialog', (d) => void d.accept());
  await strips().nth(0).getByTestId('layer-remove').click();
  await until(async () => (await stack()).layers.length === before - 1, 'GET /layers lost a layer');
  await until(async () => (await strips().count()) === before - 1, 'the strip goes');
});

test.run();
