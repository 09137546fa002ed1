// The cue panel in Chromium at phone width: three cues added over HTTP are listed with their triggers in words; GO
// on the page fires the first (its blackout lands, the row is highlighted), Jump fires the third, the form adds a
// timecode cue with its operation built for the user, and a server without timecode shows it off.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { launch, loaded, open, PHONE, type Opened, showTab } from './browser.js';

let s: TestServer;
let browser: Browser;
let o: Opened;
let page: Page;
const ids: string[] = [];

const api = async (method: string, p: string, body?: unknown) => {
  const r = await req(method, `${s.base}/api/v1${p}`, { body, timeoutMs: 15000 });
  assert.ok(r.status < 300, `${method} ${p}: ${r.status} ${r.text}`);
  return r.json();
};
const until = (cond: () => Promise<boolean> | boolean, what: string): Promise<void> =>
  waitUntil(cond, 30_000, 50).catch(() => {
    throw new Error(`timed out: ${what}`);
  });
const row = (id: string) => page.locator(`[data-testid="cue-list"] li[data-id="${id}"]`);
const current = async (id: string) => (await row(id).getAttribute('aria-current')) === 'step';

test.before(async () => {
  try {
    s = await startServer({ config: { render: { width: 160, height: 90, fps: 20 } } });
    const blackout = (enabled: boolean) => [{ op: '/global/blackout', body: { enabled } }];
    for (const c of [{ name: 'Dark', actions: blackout(true) }, { name: 'Light', actions: blackout(false) }, { name: 'Hold' }]) {
      ids.push((await api('POST', '/cues/add', c)).cue.id);
    }
    browser = await launch();
    o = await open(browser, `${s.base}/ui/`, PHONE);
    page = o.page;
    await loaded(page);
    await showTab(page, 'cues');
  } catch (err) {
    // uvu does not print a failing hook's error.
    console.error('setup failed:', err);
    throw err;
  }
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
});

test('the list shows the cues with their triggers; no timecode on this server', async () => {
  await until(async () => (await page.locator('[data-testid="cue-list"] li').count()) === 3, 'three rows');
  assert.match((await row(ids[0]!).textContent()) ?? '', /1\. Dark.*manual · blackout on/);
  assert.match((await row(ids[2]!).textContent()) ?? '', /3\. Hold.*manual/);
  assert.is(await page.getByTestId('cue-next').textContent(), 'Next: Dark, on GO');
  assert.match((await page.getByTestId('cue-tc-state').textContent()) ?? '', /off/);
  assert.is(await page.getByTestId('cue-timecode').count(), 0, 'no timecode shown');
  assert.ok(
    o.wsSent.some((f) => f.includes('"subscribe"') && f.includes('"cues"')),
    'subscribed to the cues topic',
  );
});

test('GO on the page fires the first cue: its blackout lands and its row is highlighted', async () => {
  await page.getByTestId('cue-go').click();
  await until(async () => (await api('GET', '/cues')).current?.id === ids[0], 'Dark current');
  // A cue's operations are held for the frame of their instant: a moment later.
  await until(async () => (await api('GET', '/global')).blackout === true, 'blackout on');
  await until(() => current(ids[0]!), 'Dark highlighted');
  assert.match((await page.getByTestId('cue-next').textContent()) ?? '', /Next: Light/);
});

test('Jump fires the third cue and moves the highlight to it', async () => {
  await page.getByRole('button', { name: 'Jump to Hold' }).click();
  await until(async () => (await api('GET', '/cues')).current?.id === ids[2], 'Hold current');
  await until(() => current(ids[2]!), 'Hold highlighted');
  assert.not.ok(await current(ids[0]!));
  assert.is(await page.getByTestId('cue-next').textContent(), 'End of the list.');
});

test('the form adds a timecode cue with its operation built for the user', async () => {
  await page.getByTestId('cue-add-name').fill('Late');
  await page.getByTestId('cue-add-trigger').selectOption('timecode');
  await page.getByTestId('cue-add-value').fill('01:00:00:00');
  await page.getByTestId('cue-add-action').selectOption('blackout-off');
  await page.getByTestId('cue-add-submit').click();
  let added: any;
  await until(async () => (added = (await api('GET', '/cues')).cues.find((c: any) => c.name === 'Late')) !== undefined, 'Late added');
  assert.equal(added.trigger, { kind: 'timecode', at: '01:00:00:00' });
  assert.equal(added.actions, [{ op: '/global/blackout', body: { enabled: false } }]);
  await until(async () => /at 01:00:00:00 · blackout off/.test((await row(added.id).textContent()) ?? ''), 'Late listed');
  await until(async () => (await page.getByTestId('cue-add-name').inputValue()) === '', 'the name field emptied');
});

test('phone width: no horizontal scrolling, no page errors', async () => {
  const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
  assert.ok(width <= PHONE.width, `scroll width ${width}`);
  assert.equal(o.errors, []);
  assert.equal(o.failed, []);
});

test.run();
