// The modulation editor's settings in Chromium against a running server: a new audio modulator starts moving up by
// a share of the headroom; its band, gain, threshold, attack and release, then its polarity and what the amount is
// a share of, edited on the page, reach the server (GET /effects/{index}); a beat modulator's decay and a new LFO's
// defaults too; audio bands are named in plain words in the editor, on the ∿ button and on the audio meter; a beat
// modulator on audio onsets keeps them when edited, and a rate in Hz keeps its text while it is typed.
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
const modulatorOf = async (name: string): Promise<any> =>
  (await api('GET', '/effects/1')).inputs.find((i: { name: string }) => i.name === name).modulator;
const id = (s: string) => page.getByTestId(s);
/** Types a number into a field and leaves it, as a performer commits a value. */
async function typeNumber(testId: string, value: string): Promise<void> {
  await id(testId).fill(value);
  await id(testId).press('Tab');
}

test.before(async () => {
  s = await startServer({ config: { live: { test: [], streams: [], v4l2: { enabled: false } } } });
  browser = await launch();
  await api('POST', '/effects/add', { type: 'brightness_contrast' });
  o = await open(browser, `${s.base}/ui/`);
  page = o.page;
  await loaded(page);
  // Parameters show without a click.
  await page.locator('#fx1-brightness').waitFor({ timeout: 60_000 });
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
});

test('a new audio modulator: up, headroom, and the band, gain, threshold, attack and release as edited', async () => {
  await id('fx1-brightness-mod').click();
  await id('fx1-brightness-mod-kind').selectOption('audio');
  assert.is(await id('fx1-brightness-mod-polarity').inputValue(), 'up');
  assert.is(await id('fx1-brightness-mod-amountof').inputValue(), 'headroom');
  await id('fx1-brightness-mod-source').selectOption({ label: 'Low mid' });
  await typeNumber('fx1-brightness-mod-gain', '2.5');
  await id('fx1-brightness-mod-threshold').fill('0.2');
  await typeNumber('fx1-brightness-mod-attack', '40');
  await typeNumber('fx1-brightness-mod-release', '900');
  await id('fx1-brightness-mod-apply').click();
  await until(async () => (await modulatorOf('brightness'))?.kind === 'audio', 'the modulator on the server');
  // The page has it too (Remove shows for a running modulator): only then does an edit apply at once.
  await id('fx1-brightness-mod-remove').waitFor({ timeout: 60_000 });
  const m = await modulatorOf('brightness');
  assert.equal(
    [m.source, m.polarity, m.amountOf, m.gain, m.threshold, m.attackMs, m.releaseMs],
    ['lowMid', 'up', 'headroom', 2.5, 0.2, 40, 900],
  );
});

test('polarity, amountOf and a release edited on a running modulator apply at once', async () => {
  await id('fx1-brightness-mod-polarity').selectOption('down');
  await until(async () => (await modulatorOf('brightness')).polarity === 'down', 'down on the server');
  await id('fx1-brightness-mod-amountof').selectOption('range');
  await until(async () => (await modulatorOf('brightness')).amountOf === 'range', 'range on the server');
  await typeNumber('fx1-brightness-mod-release', '1500');
  await until(async () => (await modulatorOf('brightness')).releaseMs === 1500, 'the release on the server');
  const m = await modulatorOf('brightness');
  assert.equal([m.source, m.gain, m.attackMs], ['lowMid', 2.5, 40], 'the other settings stay');
});

test('audio bands are named in plain words: the editor, the ∿ button and the meter', async () => {
  const options = await id('fx1-brightness-mod-source').locator('option').allTextContents();
  assert.equal(options, ['Level', 'Bass', 'Low mid', 'High mid', 'High', 'Onset']);
  assert.is(await id('fx1-brightness-mod').getAttribute('aria-label'), 'Modulate Brightness (audio: Low mid)');
  const meter = await page.locator('section[aria-labelledby="audio-h"] .mlabel').allTextContents();
  assert.equal(meter, ['Level', 'Bass', 'Low mid', 'High mid', 'High']);
  const text = await page.locator('body').innerText();
  assert.not.ok(/lowMid|highMid/.test(text), 'no raw band id shown');
});

test("a beat modulator's decay, and a new LFO's defaults, reach the server", async () => {
  await id('fx1-contrast-mod').click();
  await id('fx1-contrast-mod-kind').selectOption('beat');
  assert.is(await id('fx1-contrast-mod-polarity').inputValue(), 'up');
  await typeNumber('fx1-contrast-mod-every', '2');
  await typeNumber('fx1-contrast-mod-decay', '600');
  await id('fx1-contrast-mod-apply').click();
  await until(async () => (await modulatorOf('contrast'))?.kind === 'beat', 'the beat modulator on the server');
  const b = await modulatorOf('contrast');
  assert.equal([b.every, b.decayMs, b.polarity, b.amountOf], [2, 600, 'up', 'headroom']);
  await id('fx1-contrast-mod-remove').click();
  await until(async () => (await modulatorOf('contrast')) === null, 'removed');
  // The editor closes when the page has the answer, which may come after the server has it.
  await id('fx1-contrast-modedit').waitFor({ state: 'hidden', timeout: 60_000 });
  await id('fx1-contrast-mod').click();
  await id('fx1-contrast-mod-kind').selectOption('lfo');
  assert.is(await id('fx1-contrast-mod-polarity').inputValue(), 'bipolar');
  await id('fx1-contrast-mod-apply').click();
  await until(async () => (await modulatorOf('contrast'))?.kind === 'lfo', 'the LFO on the server');
  const l = await modulatorOf('contrast');
  assert.equal([l.polarity, l.amountOf], ['bipolar', 'headroom']);
  assert.equal(o.errors, []);
});

test('a beat modulator on audio onsets stays on onsets when another field is edited', async () => {
  const beat = { kind: 'beat', every: 'onset', amount: 0.5, polarity: 'up', amountOf: 'headroom', decayMs: 250 };
  await api('POST', '/effects/modulate', { index: 1, input: 'brightness', modulator: beat });
  // The brightness editor is still open from the first test; it follows the server's modulator.
  await until(async () => (await id('fx1-brightness-mod-trigger').inputValue()) === 'onset', 'the editor shows the onset trigger');
  assert.is(await id('fx1-brightness-mod-every').count(), 0, 'no beat count while on onsets');
  await typeNumber('fx1-brightness-mod-decay', '450');
  await until(async () => (await modulatorOf('brightness')).decayMs === 450, 'the decay on the server');
  assert.is((await modulatorOf('brightness')).every, 'onset');
  await id('fx1-brightness-mod-trigger').selectOption('beats');
  await until(async () => (await modulatorOf('brightness')).every === 1, 'back to every beat on the server');
  await id('fx1-brightness-mod-every').waitFor();
});

test('a rate in Hz keeps what is typed, "0." included, and applies it', async () => {
  // The contrast editor is still open on its LFO from the test before; once the page has that LFO (Remove shows),
  // its answer no longer resets the fields being typed.
  await id('fx1-contrast-mod-remove').waitFor({ timeout: 60_000 });
  await id('fx1-contrast-mod-rate').selectOption('hz');
  const hz = id('fx1-contrast-mod-hz');
  await hz.fill('');
  // One key at a time, each an input event the editor re-renders on.
  await hz.pressSequentially('0.5', { delay: 50 });
  assert.is(await hz.inputValue(), '0.5');
  await id('fx1-contrast-mod-apply').click();
  await until(async () => (await modulatorOf('contrast'))?.rate === 0.5, 'the rate in Hz on the server');
  assert.is(await hz.inputValue(), '0.5', 'the field shows the applied rate');
  assert.equal(o.errors, []);
});

test.run();
