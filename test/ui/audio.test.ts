// The audio and tempo panel in Chromium against a server playing the embedded click input: the meter moves with the
// `audio` topic, the beat lamp blinks with the `tempo` topic, tap / ×2 / ×½ / resync change GET /tempo and the BPM
// shown, the input selector switches the input, and the panel fits a phone.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { launch, loaded, open, PHONE, type Opened } from './browser.js';

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
const shownBpm = async (): Promise<number> => Number(await page.getByTestId('tempo-bpm').textContent());

test.before(async () => {
  s = await startServer({ config: { audio: { input: 'click' } } });
  browser = await launch();
  await until(async () => (await api('GET', '/audio')).state === 'running', 'the click input runs');
  await api('POST', '/tempo/bpm', { bpm: 240 });
  o = await open(browser, `${s.base}/ui/`, PHONE);
  page = o.page;
  await loaded(page);
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
});

test('the meter moves with the click', async () => {
  const level = page.getByTestId('meter-level');
  const seen = new Set<string>();
  await until(async () => {
    seen.add((await level.getAttribute('data-value')) ?? '');
    return seen.size >= 4 && [...seen].some((v) => Number(v) > 0.05);
  }, 'the level meter takes several values');
  // The click's energy sits in the low-mid band (a 1 kHz burst): that bar moves too; the others are there.
  for (const band of ['bass', 'lowMid', 'highMid', 'high'])
    assert.ok(Number.isFinite(Number(await page.getByTestId(`meter-${band}`).getAttribute('data-value'))), band);
  const lowMid = page.getByTestId('meter-lowMid');
  await until(async () => Number(await lowMid.getAttribute('data-value')) > 0.05, 'the low-mid bar rises');
  assert.ok(await page.locator('section[aria-labelledby="audio-h"] .meter').isVisible());
});

test('the beat lamp blinks on beats', async () => {
  const lamp = page.getByTestId('beat-lamp');
  const beats = new Set<string>();
  let lit = 0;
  let dark = 0;
  await until(async () => {
    beats.add((await lamp.getAttribute('data-beat')) ?? '');
    if ((await lamp.getAttribute('class'))?.split(' ').includes('on')) lit++;
    else dark++;
    return beats.size >= 4 && lit > 0 && dark > 0;
  }, 'several beats, the lamp seen lit and dark');
  assert.equal(await page.getByTestId('tempo-source').textContent(), 'manual');
  await until(async () => (await shownBpm()) === 240, 'BPM 240 shown');
});

test('×½ and ×2 change the tempo shown and on the server', async () => {
  await page.getByTestId('tempo-half').click();
  await until(async () => (await shownBpm()) === 120, '120 shown');
  assert.equal((await api('GET', '/tempo')).bpm, 120);
  await page.getByTestId('tempo-double').click();
  await until(async () => (await shownBpm()) === 240, '240 shown again');
});

test('tapping changes the BPM shown and the source; resync is sent', async () => {
  for (let i = 0; i < 5; i++) {
    await page.getByTestId('tempo-tap').click();
    await page.waitForTimeout(350);
  }
  await until(async () => (await api('GET', '/tempo')).source === 'tap', 'source tap');
  await until(async () => (await page.getByTestId('tempo-source').textContent()) === 'tap', 'tap shown');
  const server = (await api('GET', '/tempo')).bpm;
  assert.ok(server !== 240, `bpm ${server}`);
  await until(async () => Math.abs((await shownBpm()) - server) < 0.1, 'the BPM shown is the server tempo');
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/v1/tempo/resync'));
  await page.getByTestId('tempo-resync').click();
  assert.equal((await answered).status(), 200);
});

test('the input selector switches the audio input', async () => {
  const select = page.getByTestId('audio-input');
  assert.equal(await select.inputValue(), 'click');
  await select.selectOption('none');
  await until(async () => (await api('GET', '/audio')).current === null, 'no input');
  await select.selectOption('click');
  await until(async () => (await api('GET', '/audio')).current === 'click', 'click again');
});

test('the panel fits a phone and the page had no errors', async () => {
  const box = await page.locator('section[aria-labelledby="audio-h"]').boundingBox();
  assert.ok(box && box.width <= PHONE.width, `width ${box?.width}`);
  const overflow = await page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return (root.scrollWidth as number) - (root.clientWidth as number);
  });
  assert.equal(overflow, 0);
  assert.equal(o.errors, []);
  assert.equal(o.consoleErrors, []);
});

test.run();
