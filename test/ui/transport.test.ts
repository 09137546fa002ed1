// The transport panel in Chromium against a server playing a generated clip whose colour changes every second: the
// panel shows for a clip and not for a generator, the time remaining counts down, the toggle pauses, a click half-way
// along the scrub bar seeks there, a cue added shows as a marker that seeks, the loop select sets the loop mode, and
// the panel fits a phone without console errors; a clip cued on preview alone is driven on the preview bus.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { patientReq, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';
import { launch, loaded, open, PHONE, type Opened } from './browser.js';

const run = promisify(execFile);
const COLOURS = ['red', 'lime', 'blue', 'yellow', 'magenta', 'cyan'];
const FPS = 25;
let s: TestServer;
let work = '';
let browser: Browser;
let o: Opened;
let page: Page;

const api = async (method: string, path: string, body?: unknown): Promise<any> => {
  const r = await patientReq(method, `${s.base}/api/v1${path}`, { body, timeoutMs: 20000 });
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
  return r.json();
};
const clip = async (): Promise<any> => (await api('GET', '/transport')).program;
const until = (cond: () => Promise<boolean> | boolean, what: string): Promise<void> =>
  waitUntil(cond, 45_000, 50).catch(() => {
    throw new Error(`timed out: ${what}`);
  });
/** Seconds from an `m:ss.s` text (a leading minus sign ignored); NaN for anything else. */
const seconds = (text: string | null): number => {
  const m = /^−?(\d+):(\d\d\.\d)$/.exec((text ?? '').trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
};
const panel = () => page.getByTestId('transport-panel');
const subscribedTransport = (): boolean =>
  o.wsSent.some((f) => f.includes('"subscribe"') && (JSON.parse(f).topics as string[]).includes('transport'));

test.before(async () => {
  work = await tempDir('vjd-ui-transport-');
  const media = join(work, 'media');
  await mkdir(media);
  const inputs = COLOURS.flatMap((c) => ['-f', 'lavfi', '-i', `color=c=${c}:s=96x72:r=${FPS}:d=1`]);
  const concat = `${COLOURS.map((_, i) => `[${i}]`).join('')}concat=n=${COLOURS.length}:v=1:a=0`;
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    ...inputs,
    '-filter_complex',
    concat,
    '-c:v',
    'libx264',
    '-g',
    String(FPS),
    '-pix_fmt',
    'yuv420p',
    join(media, 'Colours.mp4'),
  ]);
  s = await startServer({
    config: {
      render: { width: 160, height: 120, fps: FPS },
      media: { roots: [media] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
    },
  });
  await until(async () => (await api('GET', '/sources')).items.some((i: any) => i.sourceKind === 'file'), 'the clip is listed');
  await api('POST', '/sources/select', { id: 'source:plasma' });
  browser = await launch();
  o = await open(browser, `${s.base}/ui/`, PHONE);
  page = o.page;
  await loaded(page);
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
  if (work) await rm(work, { recursive: true, force: true });
});

test('no transport panel for a generator, and no transport subscription', async () => {
  await until(async () => ((await page.getByTestId('program-name').textContent()) ?? '').length > 1, 'the program name shows');
  assert.is(await panel().count(), 0);
  assert.is(subscribedTransport(), false);
});

test('the panel shows for a clip and subscribes to the transport topic', async () => {
  await api('POST', '/inputs/file/select', { name: 'Colours' });
  await until(async () => (await clip())?.state === 'playing', 'the clip plays');
  await until(async () => (await panel().count()) === 1 && (await panel().isVisible()), 'the panel shows');
  await until(subscribedTransport, 'the page subscribes to transport');
  await until(async () => (await page.getByTestId('transport-state').textContent())?.startsWith('playing') ?? false, 'playing shown');
});

test('the time remaining counts down', async () => {
  const remaining = page.getByTestId('transport-remaining');
  const seen: number[] = [];
  await until(
    async () => {
      const v = seconds(await remaining.textContent());
      if (Number.isFinite(v)) seen.push(v);
      // Two readings a few tenths apart, the later lower (a loop's wrap jumps up, never down by this much).
      return seen.some((a, i) => seen.slice(i + 1).some((b) => a - b >= 0.3 && a - b <= 2));
    },
    `the remaining time falls (${seen.slice(-5).join(', ')})`,
  );
  const duration = (await clip()).durationS;
  assert.ok(
    seen.every((v) => v >= 0 && v <= duration + 0.1),
    `within the clip: ${seen.join(', ')}`,
  );
});

test('the toggle pauses the clip', async () => {
  const toggle = page.getByTestId('transport-toggle');
  assert.is(await toggle.textContent(), 'Pause');
  await toggle.click();
  await until(async () => (await clip()).state === 'paused', 'GET /transport says paused');
  await until(async () => (await toggle.textContent()) === 'Play', 'the button offers Play');
});

test('a click half-way along the scrub bar seeks to half the clip', async () => {
  const bar = page.getByTestId('transport-scrub');
  const box = await bar.boundingBox();
  assert.ok(box && box.width > 100, `bar ${JSON.stringify(box)}`);
  await bar.click({ position: { x: box.width * 0.5, y: box.height / 2 } });
  const t = await clip();
  const half = t.durationS / 2;
  await until(async () => Math.abs((await clip()).positionS - half) <= 0.25, `positionS near ${half}`);
  assert.is((await clip()).state, 'paused');
  await until(
    async () => Math.abs(seconds(await page.getByTestId('transport-position').textContent()) - half) <= 0.25,
    'the position text shows it',
  );
});

test('a cue added at the position shows as a marker that seeks there', async () => {
  const at = (await clip()).positionS;
  await page.getByTestId('transport-cue-name').fill('drop');
  await page.getByTestId('transport-cue-add').click();
  const marker = page.locator('[data-testid="transport-cue"][data-name="drop"]');
  await until(async () => (await marker.count()) === 1, 'the marker shows');
  const cue = (await clip()).cues.find((c: any) => c.name === 'drop');
  assert.ok(cue && Math.abs(cue.positionS - at) <= 0.25, `cue ${JSON.stringify(cue)} at ${at}`);
  // Sent again until it holds: a paced seek from the earlier scrub click may still land after the first one.
  await until(async () => {
    await api('POST', '/transport/seek', { fraction: 0.1 });
    return (await clip()).positionS < cue.positionS - 1;
  }, 'moved away from the cue');
  await marker.click();
  await until(async () => Math.abs((await clip()).positionS - cue.positionS) <= 0.1, 'the marker seeks to the cue');
});

test('the loop select sets the loop mode', async () => {
  const select = page.getByTestId('transport-loop');
  assert.is(await select.inputValue(), 'loop');
  await select.selectOption('once');
  await until(async () => (await clip()).loop === 'once', 'GET /transport says once');
  await select.selectOption('once-black');
  await until(async () => (await clip()).loop === 'once-black', 'GET /transport says once-black');
});

test('the panel fits a phone and the page had no errors', async () => {
  const box = await panel().boundingBox();
  assert.ok(box && box.width <= PHONE.width, `width ${box?.width}`);
  const overflow = await page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return (root.scrollWidth as number) - (root.clientWidth as number);
  });
  assert.equal(overflow, 0);
  assert.equal(o.errors, []);
  assert.equal(o.consoleErrors, []);
});

test('back on a generator the panel goes and the transport subscription ends', async () => {
  const before = o.wsSent.length;
  await api('POST', '/sources/select', { id: 'source:plasma' });
  await until(async () => (await panel().count()) === 0, 'the panel goes');
  await until(
    () => o.wsSent.slice(before).some((f) => f.includes('"subscribe"') && !(JSON.parse(f).topics as string[]).includes('transport')),
    'the page drops the transport topic',
  );
});

test('a clip cued on preview alone gets the panel, which drives the preview bus', async () => {
  await api('POST', '/mix/cue', { name: 'Colours' });
  const cued = async (): Promise<any> => (await api('GET', '/transport')).preview;
  await until(async () => (await cued()) !== null, 'the cued clip has a transport');
  // The loop mode set above is saved for the file: loop again (and play, had it ended), so it plays until the click.
  await api('POST', '/transport/loop', { bus: 'preview', mode: 'loop' });
  await api('POST', '/transport/play', { bus: 'preview' });
  await until(async () => (await cued()).state === 'playing', 'the cued clip plays');
  await until(async () => (await page.getByTestId('transport-loop').count()) === 1, 'the controls show');
  await until(async () => (await page.getByTestId('transport-toggle').textContent()) === 'Pause', 'the toggle offers Pause');
  assert.is(await page.getByTestId('transport-bus').count(), 0);
  await page.getByTestId('transport-toggle').click();
  await until(async () => (await cued()).state === 'paused', 'the preview clip pauses');
  assert.is((await api('GET', '/transport')).program, null);
  assert.equal(o.consoleErrors, []);
});

test.run();
