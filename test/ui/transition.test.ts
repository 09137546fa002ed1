// The page's default transition against a real server, in Chromium: it IS the mixer's (the page's control sets
// GET /mix's transition without taking, POST /mix/transition; a change over HTTP shows on the page); scene buttons
// recall with it (the output blends the two scenes midway) unless a button has its own (a cut: the new scene is on the
// output when the recall answers), kept across a reload; "Program" names what is on air with several layers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { patientReq, req, sampleOutput, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';
import { launch, loaded, open, type Opened } from './browser.js';

let s: TestServer;
let browser: Browser;
let o: Opened;
let page: Page;

const api = async (method: string, path: string, body?: unknown): Promise<any> => {
  const r = await patientReq(method, `${s.base}/api/v1${path}`, { body, timeoutMs: 20000 });
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
  return r.json();
};
const until = (cond: () => Promise<boolean> | boolean, what: string, ms = 30_000): Promise<void> =>
  waitUntil(cond, ms, 50).catch(() => {
    throw new Error(`timed out: ${what}`);
  });
const mix = (): Promise<any> => api('GET', '/mix');
const center = async (): Promise<number[]> => (await sampleOutput(s.base))[0]!;
const near = (p: number[], rgb: number[], tol = 40): boolean => rgb.every((v, i) => Math.abs(p[i]! - v) <= tol);
const button = (name: string) => page.locator(`[data-testid="scene-button"][data-name="${name}"]`);
const SOLID = (name: string, rgb: number[]) => JSON.stringify({ name, source: 'solid_color', inputs: { color: [...rgb, 1] } });
/** Long enough that a loaded box still samples the output several times while it runs. */
const FADE_MS = 6000;

test.before(async () => {
  const dataDir = await tempDir('vjd-ui-transition-');
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
  await api('POST', '/scenes/save', { name: 'Red' });
  await api('POST', '/sources/select', { id: 'preset:blue' });
  await api('POST', '/scenes/save', { name: 'Blue' });
  browser = await launch();
  o = await open(browser, `${s.base}/ui/`);
  page = o.page;
  await loaded(page);
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
});

test("the page's transition control sets the mixer's transition without taking", async () => {
  const before = await mix();
  assert.equal(before.transition, { type: 'cut', durationMs: 0 });
  await page.getByTestId('transition').selectOption('fade');
  await until(async () => (await mix()).transition.type === 'fade', 'GET /mix says fade');
  await page.getByTestId('duration').fill(String(FADE_MS));
  await until(async () => (await mix()).transition.durationMs === FADE_MS, 'GET /mix has the duration');
  const after = await mix();
  assert.is(after.program.id, before.program.id, 'nothing taken');
  assert.is(after.inTransition, false);
  assert.ok(near(await center(), [0, 0, 255]), 'the output still shows the program');
});

test('a change over HTTP shows on the page; bad input is a clear 400/404', async () => {
  await api('POST', '/mix/transition', { transition: 'dip', durationMs: 700 });
  await until(async () => (await page.getByTestId('transition').inputValue()) === 'dip', 'the select follows');
  await until(async () => (await page.getByTestId('duration').inputValue()) === '700', 'the duration follows');
  const post = (body: unknown) => req('POST', `${s.base}/api/v1/mix/transition`, { body });
  const empty = await post({});
  assert.is(empty.status, 400);
  assert.match(empty.json().message, /transition.*durationMs/);
  const unknown = await post({ transition: 'sparkle' });
  assert.is(unknown.status, 404);
  assert.is(unknown.json().code, 'ITEM_NOT_FOUND');
  const long = await post({ durationMs: 20000 });
  assert.is(long.status, 400);
  assert.match(long.json().message, /durationMs/);
  assert.equal((await mix()).transition, { type: 'dip', durationMs: 700 }, 'refused requests changed nothing');
  // Back to the page's fade for the scene tests, set from the page.
  await page.getByTestId('transition').selectOption('fade');
  await page.getByTestId('duration').fill(String(FADE_MS));
  await until(async () => JSON.stringify((await mix()).transition) === JSON.stringify({ type: 'fade', durationMs: FADE_MS }), 'fade set');
});

test("a scene button recalls with the page's transition: midway the output blends the two scenes", async () => {
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/v1/scenes/recall'));
  await button('Red').click();
  const body = (await sent).postDataJSON();
  assert.equal(body, { id: 'red', transition: 'fade', durationMs: FADE_MS });
  // From blue to red: a frame with both channels part-way is one only a fade draws.
  let mid: number[] | null = null;
  await until(async () => {
    const p = await center();
    if (p[0]! > 40 && p[0]! < 215 && p[2]! > 40 && p[2]! < 215) mid = p;
    return mid !== null;
  }, 'a frame between the two scenes');
  await until(async () => near(await center(), [255, 0, 0]), 'red after the fade');
  assert.equal((await mix()).transition, { type: 'fade', durationMs: FADE_MS }, "the recall left the mixer's transition");
});

test('a button with its own transition recalls with it; the other keeps the default; kept across a reload', async () => {
  await button('Blue').locator('xpath=..').getByTestId('scene-edit').click();
  const editor = page.getByTestId('scene-editor');
  await editor.waitFor();
  await editor.getByTestId('scene-transition').selectOption('cut');
  await editor.getByTestId('scene-duration').fill('0');
  // The label shows as soon as the kind is chosen; the duration typed after it may take a render longer.
  await until(async () => (await button('Blue').getByTestId('scene-own').count()) === 1, 'the button shows its own transition');
  await until(async () => (await button('Blue').getByTestId('scene-own').innerText()) === 'cut 0 ms', 'cut 0 ms shown');
  assert.is(await button('Red').getByTestId('scene-own').count(), 0);
  await editor.getByTestId('scene-editor-done').click();

  const answered = page.waitForResponse((r) => r.url().endsWith('/api/v1/scenes/recall'));
  await button('Blue').click();
  const res = await answered;
  assert.equal(res.request().postDataJSON(), { id: 'blue', transition: 'cut', durationMs: 0 });
  assert.is(res.status(), 200);
  // A cut's recall answers once the new scene is on the output; a fade would still show mostly red here.
  assert.ok(near(await center(), [0, 0, 255]), 'blue at once');
  assert.equal((await mix()).transition, { type: 'fade', durationMs: FADE_MS }, 'the default is unchanged');

  await page.reload();
  await loaded(page);
  await until(async () => (await button('Blue').getByTestId('scene-own').count()) === 1, 'still there after a reload');
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/v1/scenes/recall'));
  await button('Red').click();
  assert.equal((await sent).postDataJSON(), { id: 'red', transition: 'fade', durationMs: FADE_MS });
  await until(async () => near(await center(), [255, 0, 0]), 'red after the fade');

  // "Default" gives the button back to the default transition.
  await button('Blue').locator('xpath=..').getByTestId('scene-edit').click();
  await page.getByTestId('scene-editor').getByTestId('scene-transition').selectOption('');
  await until(async () => (await button('Blue').getByTestId('scene-own').count()) === 0, 'own transition cleared');
});

test('"Program" names what is on air, not the selected layer', async () => {
  await api('POST', '/mix/transition', { transition: 'cut', durationMs: 0 });
  await api('POST', '/sources/select', { id: 'source:plasma' });
  await until(async () => (await page.getByTestId('program-name').innerText()) === 'Plasma', 'plasma on air');
  const added = await api('POST', '/layers/add', {});
  assert.is(added.layers.length, 2);
  await api('POST', '/layers/select', { layer: 2 });
  assert.is((await mix()).program.name, '', 'the selected (new, empty) layer has no program');
  await until(async () => (await page.getByTestId('layer-strip').count()) === 2, 'two strips');
  assert.is(await page.getByTestId('program-name').innerText(), 'Plasma', 'still what is on air');
  await api('POST', '/layers/2/sources/select', { id: 'preset:red' });
  await until(async () => (await page.getByTestId('program-name').innerText()) === 'Red over Plasma', 'both layers named, top first');
  await api('POST', '/layers/mute', { layer: 2, enabled: true });
  await until(async () => (await page.getByTestId('program-name').innerText()) === 'Plasma', 'a muted layer is not on air');
  // The layer's own name and picture stay in its strip.
  const top = page.locator('[data-testid="layer-strip"][data-layer="2"]');
  assert.is(await top.getByTestId('layer-source').innerText(), 'Red');
  await api('POST', '/layers/remove', { layer: 2 });
  await until(async () => (await page.getByTestId('program-name').innerText()) === 'Plasma', 'one layer again');
  assert.equal(o.errors, []);
  // The strip of the layer just removed may still be asking for its picture: that answer is a 404, which the
  // browser logs. Any other console error fails.
  const removedLayer = /status of 404 .*\/thumbnails\/layer\/2\?/;
  assert.equal(
    o.consoleErrors.filter((e) => !removedLayer.test(e)),
    [],
  );
});

test.run();
