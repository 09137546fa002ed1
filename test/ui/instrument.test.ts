// Playing the page like an instrument, in Chromium against a running server: the effect picker shows each effect's
// picture (loaded images, usable by keys), and a media clip pointed at in Browse has its reader opened ahead, so the
// double-click that follows puts it on its layer through that reader (checked over HTTP and in /proc).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { patientReq, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';
import { makeColourClip } from '../helpers/colour-clip.js';
import { launch, loaded, open, type Opened } from './browser.js';

let s: TestServer;
let browser: Browser;
let o: Opened;
let page: Page;
let clipPath: string;

const api = async (method: string, path: string, body?: unknown): Promise<any> => {
  const r = await patientReq(method, `${s.base}/api/v1${path}`, { body, timeoutMs: 15000 });
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
  return r.json();
};
const until = (cond: () => Promise<boolean> | boolean, what: string): Promise<void> =>
  waitUntil(cond, 45_000, 100).catch(() => {
    throw new Error(`timed out: ${what}`);
  });

/** The ffmpeg children of the server decoding `file` into a frame ring (its reader, not a poster extraction), by pid. */
async function readersOf(file: string): Promise<number[]> {
  const out: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== s.proc.pid) continue;
      const cmd = (await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0');
      if (cmd.some((a) => a.endsWith('ffmpeg')) && cmd.includes(file) && cmd.includes('rawvideo')) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

test.before(async () => {
  const dataDir = await tempDir();
  const media = join(dataDir, 'clips');
  await mkdir(media);
  clipPath = await makeColourClip(media, 'colours', 30);
  s = await startServer({ dataDir, config: { media: { roots: [media] } } });
  browser = await launch();
  o = await open(browser, `${s.base}/ui/`);
  page = o.page;
  await loaded(page);
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
});

test('the effect picker shows every effect with its picture; keys move through it and add one', async () => {
  await page.getByTestId('add-effect').click();
  const picker = page.getByTestId('effect-picker');
  await picker.waitFor();
  const invert = picker.locator('button[data-type="invert"]');
  await invert.scrollIntoViewIfNeeded();
  const img = invert.locator('img[data-testid="effect-thumb"]');
  await img.waitFor({ timeout: 45_000 });
  await until(
    () => img.evaluate((el: any) => el.complete && el.naturalWidth > 0 && el.naturalHeight > 0),
    'the invert picture loaded with a size',
  );
  assert.match(await invert.innerText(), /Invert/);
  assert.ok(
    o.urls.some((u) => u.includes('/api/v1/catalog/effects/invert/thumbnail')),
    'asked the effect thumbnail route',
  );
  // Only what is on screen is asked for: far fewer requests than effects while the grid has not scrolled.
  const count = (await api('GET', '/effects/available')).items.length;
  const asked = new Set(o.urls.filter((u) => u.includes('/catalog/effects/')).map((u) => u.split('/catalog/effects/')[1]!.split('/')[0]));
  assert.ok(asked.size < count, `${asked.size} of ${count} pictures asked before scrolling`);
  // Keys: from the search field down into the grid, then on to the next button; Enter adds that effect.
  await page.getByTestId('effect-search').fill('invert');
  await page.getByTestId('effect-search').press('ArrowDown');
  const focused = await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('data-type'));
  assert.is(focused, 'invert');
  await page.keyboard.press('Enter');
  await until(async () => (await api('GET', '/effects')).items.some((i: any) => i.type === 'invert'), 'invert in the chain');
  assert.equal(o.errors, []);
  // A busy box may answer a picture 503 (documented, kept in o.overloaded); the picker asks again.
  assert.equal(o.consoleErrors, []);
});

test('a clip pointed at in Browse is warm before the double-click, which puts it on its layer', async () => {
  const files = (await api('GET', '/sources')).items.filter((i: any) => i.sourceKind === 'file');
  assert.is(files.length, 1);
  const clip = files[0];
  assert.equal(await readersOf(clipPath), [], 'no reader before the pointer comes');
  await page.getByTestId('browse-list').locator('.item[data-name="Media Files"]').click();
  const row = page.getByTestId('browse-list').locator(`.item[data-name="${clip.name}"]`);
  await row.waitFor();
  await row.hover();
  await until(async () => (await readersOf(clipPath)).length === 1, 'the reader opened while the pointer rests on the row');
  assert.ok(
    o.urls.some((u) => u.endsWith('/api/v1/sources/warm')),
    'the page asked for the warm-up',
  );
  // Nothing on the layer or the preview yet: warming only opens the reader.
  assert.is.not((await api('GET', '/layers')).layers[0].source.id, clip.id);
  assert.is((await api('GET', '/mix')).preview, null);
  const cues = () => o.urls.filter((u) => u.endsWith('/api/v1/mix/cue')).length;
  const cuesBefore = cues();
  await row.dblclick();
  await until(async () => (await api('GET', '/layers')).layers[0].source.id === clip.id, 'the clip on its layer');
  assert.is(cues() - cuesBefore, 1, "one cue for the double-click's two clicks and its take");
  await until(async () => (await page.getByTestId('layer-source').first().innerText()) === clip.name, 'the strip names the clip');
  // One reader for the clip: the cue joined the warm one (its ffmpeg may have been replaced since by a loop or seek).
  assert.is((await readersOf(clipPath)).length, 1, 'one reader of the clip');
  // Opened paused at its start, the clip plays once taken.
  await until(async () => (await api('GET', '/transport')).program?.state === 'playing', 'the clip plays on the program');
  assert.equal(o.errors, []);
});

test.run();
