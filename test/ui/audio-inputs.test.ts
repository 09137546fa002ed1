// The audio inputs section in Chromium against a real server: a media library file added from the page is listed,
// Use selects it and it is heard in GET /audio; a refused path shows the server's message next to the file field;
// an input another client adds shows up without a reload; Remove detaches the selected input.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';
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
  waitUntil(cond, 30_000, 50).catch(() => {
    throw new Error(`timed out: ${what}`);
  });
const row = (id: string) => page.locator(`[data-testid="audio-inputs"] li[data-id="${id}"]`);

test.before(async () => {
  const dataDir = await tempDir();
  await mkdir(join(dataDir, 'media'), { recursive: true });
  const made = spawn('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', 'sine=frequency=8000:sample_rate=48000:duration=3', join(dataDir, 'media', 'hiss.wav')],
  ]);
  assert.is(await new Promise((r) => made.on('exit', r)), 0);
  s = await startServer({ dataDir });
  browser = await launch();
  o = await open(browser, `${s.base}/ui/`);
  page = o.page;
  await loaded(page);
  // The inputs are folded in the audio panel (set-up, not performance).
  await page.getByTestId('audio-inputs-fold').locator('summary').click();
  await page.getByTestId('audio-inputs').waitFor();
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
});

test('a refused file shows the server message next to the file field', async () => {
  await page.getByTestId('audio-input-kind').selectOption('file');
  await page.getByTestId('audio-input-target').fill('../../etc/passwd');
  await page.getByTestId('audio-input-submit').click();
  const error = page.locator('[data-testid="audio-input-error"][data-field="file"]');
  await error.waitFor({ timeout: 15000 });
  assert.match((await error.textContent()) ?? '', /file/);
  assert.not.ok((await api('GET', '/audio/inputs')).items.some((i: any) => i.kind === 'file'));
});

test('a library file added from the page is listed and, once used, heard in GET /audio', async () => {
  await page.getByTestId('audio-input-target').fill('hiss.wav');
  await page.getByTestId('audio-input-name').fill('Hiss');
  await page.getByTestId('audio-input-submit').click();
  await row('hiss').waitFor({ timeout: 15000 });
  await until(async () => (await page.locator('[data-testid="audio-input-error"]').count()) === 0, 'the refusal is cleared');
  assert.is(await row('hiss').getAttribute('data-origin'), 'added');
  await row('hiss').locator('button.use').click();
  await until(async () => (await row('hiss').getAttribute('data-selected')) === 'true', 'the row shows it in use');
  await until(async () => {
    const a = await api('GET', '/audio');
    return a.current === 'hiss' && a.state === 'running' && a.levels.high > 0.5;
  }, 'the file is heard: the high band rises');
  // The selector above lists it too, as the one selected.
  await until(async () => (await page.getByTestId('audio-input').inputValue()) === 'hiss', 'the selector shows it');
});

test('an input another client adds shows up; Remove detaches the selected one', async () => {
  await api('POST', '/audio/inputs/add', { id: 'elsewhere', kind: 'stream', url: 'udp://127.0.0.1:9' });
  await row('elsewhere').waitFor({ timeout: 15000 });
  await row('hiss').locator('button.remove').click();
  await until(async () => (await row('hiss').count()) === 0, 'the row is gone');
  const a = await api('GET', '/audio');
  assert.equal([a.current, a.state], [null, 'stopped']);
  assert.equal(o.errors, []);
});

test.run();
