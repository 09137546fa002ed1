// The page on a phone (390×844, touch) in Chromium against a real server: the performance deck — program and
// preview pictures, take, tempo with tap and BPM, scenes, blackout — lies on the first screen without scrolling; the
// other panels sit behind tabs that keep their state and the chosen tab across a reload; deck controls work by touch
// (checked over HTTP) and are at least 44 px; on a laptop every panel shows at once and the tab bar is hidden.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { patientReq, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { LAPTOP, launch, loaded, open, PHONE, type Opened } from './browser.js';

let s: TestServer;
let browser: Browser;
let o: Opened;
let page: Page;

const api = async (method: string, path: string, body?: unknown): Promise<any> => {
  const r = await patientReq(method, `${s.base}/api/v1${path}`, { body, timeoutMs: 20000 });
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
  return r.json();
};
const until = (cond: () => Promise<boolean> | boolean, what: string): Promise<void> =>
  waitUntil(cond, 30_000, 100).catch(() => {
    throw new Error(`timed out: ${what}`);
  });

/** Each tab and something its panel shows. */
const TAB_SHOWS: Array<[string, string]> = [
  ['effects', '#effects-h'],
  ['browse', '[data-testid="browse-list"]'],
  ['layers', '[data-testid="layers-panel"]'],
  ['palettes', '[data-testid="palette-current"]'],
  ['outputs', '#outputs-h'],
  ['cues', '[data-testid="cues-panel"]'],
  ['desks', '#desks-h'],
];

test.before(async () => {
  s = await startServer();
  await api('POST', '/sources/select', { id: 'source:plasma' });
  await api('POST', '/scenes/save', { name: 'Opening' });
  browser = await launch();
  o = await open(browser, `${s.base}/ui/`, PHONE, { hasTouch: true, isMobile: true });
  page = o.page;
  await loaded(page);
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
});

test('the first screen holds program and preview, take, tap tempo and BPM, blackout and the scenes', async () => {
  await page.locator('[data-testid="scene-button"][data-name="Opening"]').waitFor();
  assert.is(await page.evaluate(() => (globalThis as any).scrollY), 0);
  for (const id of ['program-img', 'cued-img', 'take', 'tempo-tap', 'tempo-bpm', 'blackout', 'program-name']) {
    const box = await page.getByTestId(id).boundingBox();
    assert.ok(box, `${id} is shown`);
    assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `${id} fits across: ${JSON.stringify(box)}`);
    assert.ok(box.y >= 0 && box.y + box.height <= PHONE.height, `${id} on the first screen: ${JSON.stringify(box)}`);
  }
  // The scene row starts on the first screen: its first button is there.
  const scene = await page.locator('[data-testid="scene-button"][data-name="Opening"]').boundingBox();
  assert.ok(scene && scene.y < PHONE.height, `scene button at ${JSON.stringify(scene)}`);
  // Its transition and delete buttons are as easy to hit as every other control.
  for (const id of ['scene-edit', 'scene-delete']) {
    const box = await page.getByTestId(id).first().boundingBox();
    assert.ok(box && box.height >= 44 && box.width >= 44, `${id} at ${JSON.stringify(box)}`);
  }
  const overflow = await page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return (root.scrollWidth as number) - (root.clientWidth as number);
  });
  assert.is(overflow, 0, 'no sideways scrolling');
});

test('deck controls work by touch: blackout and take, seen over HTTP', async () => {
  await page.getByTestId('blackout').tap();
  await until(async () => (await api('GET', '/global')).blackout === true, 'blackout on');
  await page.getByTestId('blackout').tap();
  await until(async () => (await api('GET', '/global')).blackout === false, 'blackout off');
  await api('POST', '/mix/cue', { id: 'source:rings' });
  await until(async () => (await page.getByTestId('cued-img').getAttribute('data-loaded')) === 'yes', 'the cued picture shows');
  await until(async () => !(await page.getByTestId('take').isDisabled()), 'take enabled');
  await page.getByTestId('take').tap();
  await until(async () => (await api('GET', '/mix')).program?.id === 'source:rings', 'rings taken');
  await until(async () => (await page.getByTestId('program-name').innerText()) === 'Rings', 'program named on the page');
});

test('every other panel is one tab away; only the chosen tab shows', async () => {
  for (const [tab, shows] of TAB_SHOWS) {
    await page.getByTestId(`tab-${tab}`).tap();
    await page.locator(shows).first().waitFor({ state: 'visible', timeout: 20000 });
    assert.is(await page.getByTestId(`tab-${tab}`).getAttribute('aria-selected'), 'true');
    for (const [other, sel] of TAB_SHOWS) {
      if (other !== tab) assert.not.ok(await page.locator(sel).first().isVisible(), `${sel} hidden while ${tab} shows`);
    }
    // The deck stays on top whatever the tab.
    assert.ok(await page.getByTestId('tempo-tap').isVisible());
  }
  // Effects: the generator's inputs show with the chain, without a further tap.
  await page.getByTestId('tab-effects').tap();
  await page.getByTestId('generator').waitFor({ state: 'visible' });
  await page.locator('#gen-ringColor').waitFor({ state: 'visible', timeout: 20000 });
});

test('a hidden panel keeps its state, and the chosen tab survives a reload', async () => {
  await page.getByTestId('tab-browse').tap();
  await page.getByTestId('browse-search').fill('plas');
  await page.getByTestId('tab-palettes').tap();
  await page.getByTestId('tab-browse').tap();
  assert.is(await page.getByTestId('browse-search').inputValue(), 'plas');
  await page.reload();
  await loaded(page);
  assert.is(await page.getByTestId('tab-browse').getAttribute('aria-selected'), 'true');
  await page.getByTestId('browse-list').waitFor({ state: 'visible' });
  assert.equal(o.errors, []);
  assert.equal(o.consoleErrors, []);
});

test('on a laptop every panel shows at once and there is no tab bar', async () => {
  const wide = await open(browser, `${s.base}/ui/`, LAPTOP);
  await loaded(wide.page);
  assert.not.ok(await wide.page.getByTestId('tabs').isVisible());
  for (const [, sel] of TAB_SHOWS) assert.ok(await wide.page.locator(sel).first().isVisible(), `${sel} visible on a laptop`);
  for (const id of ['take', 'tempo-tap', 'program-img', 'scenes-panel']) assert.ok(await wide.page.getByTestId(id).isVisible(), id);
  await wide.page.context().close();
});

test.run();
