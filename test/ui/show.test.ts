// The show panel in Chromium: on a box of a show (a real mosquitto) it shows the show, this box, the broker
// connection and the box list live over the `show` topic, and a scheduled operation with its Cancel button; on a
// box without a show the panel is not there at all and the page never subscribes to the topic.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { startBroker, type TestBroker } from '../helpers/mosquitto.js';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { LAPTOP, launch } from './browser.js';

let broker: TestBroker;
let alone: TestServer;
let member: TestServer;
let browser: Browser;
const errors: string[] = [];
/** The show box's page, shared by the first two tests. */
let shown: Page | null = null;

const until = (cond: () => Promise<boolean> | boolean, what: string): Promise<void> =>
  waitUntil(cond, 30_000, 50).catch(() => {
    throw new Error(`timed out: ${what}`);
  });
const text = async (page: Page, id: string): Promise<string> => (await page.getByTestId(id).textContent()) ?? '';

/** Opens the page and resolves once it has its answer to GET /show (read once the events socket is up). */
async function openPage(s: TestServer): Promise<{ page: Page; wsSent: string[] }> {
  const page = await (await browser.newContext({ viewport: LAPTOP })).newPage();
  const wsSent: string[] = [];
  page.on('pageerror', (e) => void errors.push(e.message));
  page.on('websocket', (ws) => ws.on('framesent', (f) => void wsSent.push(String(f.payload))));
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/show', { timeout: 60_000 });
  await page.goto(`${s.base}/ui/`);
  await (await answered).finished();
  return { page, wsSent };
}

test.before(async () => {
  try {
    broker = await startBroker();
    // One after the other: two servers starting at once on a loaded 2-core box may outlast the helper's start limit.
    const render = { width: 160, height: 120, fps: 20 };
    alone = await startServer({ config: { render } });
    member = await startServer({
      config: { render, show: { name: 'tour', box: 'foh', broker: { url: broker.url }, groups: ['screens'], leader: true } },
    });
    browser = await launch();
  } catch (err) {
    // uvu does not print a failing hook's error.
    console.error('setup failed:', err);
    throw err;
  }
});
test.after(async () => {
  await browser?.close();
  await Promise.all([alone?.cleanup(), member?.cleanup()]);
  await broker?.cleanup();
});

test('with a show: the panel shows the show, the broker connection and the boxes', async () => {
  const { page, wsSent } = await openPage(member);
  shown = page;
  await page.getByTestId('show-panel').waitFor({ timeout: 30_000 });
  assert.match((await page.locator('#show-h').textContent()) ?? '', /Show tour/);
  assert.is(await text(page, 'show-box'), 'foh');
  await until(async () => (await text(page, 'show-broker')).startsWith(`Connected to ${broker.url}`), 'the broker line');
  const box = page.locator('[data-testid="show-boxes"] li[data-box="foh"]');
  await until(async () => /online/.test((await box.textContent()) ?? ''), 'this box listed online');
  // The clock's line comes with a later show event than the box list may.
  await page.getByTestId('show-clock').waitFor({ timeout: 30_000 });
  await until(async () => /this box leads/.test(await text(page, 'show-clock')), 'the clock line');
  assert.ok(
    wsSent.some((f) => f.includes('"subscribe"') && f.includes('"show"')),
    'the page subscribed to the show topic',
  );
});

test('a scheduled operation is listed with Cancel, which takes it back', async () => {
  const page = shown!;
  // Far enough ahead that it still waits however slowly this box runs; cancelled from the page, so it never runs.
  const at = new Date(Date.now() + 120_000).toISOString();
  const r = await req('POST', `${member.base}/api/v1/global/dimmer`, { body: { value: 0.4, at } });
  assert.is(r.status, 202, r.text);
  const cancel = page.getByRole('button', { name: /^Cancel POST \/api\/v1\/global\/dimmer/ });
  await cancel.waitFor({ timeout: 30_000 });
  await cancel.click();
  await until(async () => (await req('GET', `${member.base}/api/v1/show/scheduled`)).json().waiting.length === 0, 'the cancel');
  await until(async () => (await page.locator('[data-testid="show-waiting"] li').count()) === 0, 'the list emptied');
  await page.context().close();
});

test('without a show: no panel, and no subscription to the show topic', async () => {
  const { page, wsSent } = await openPage(alone);
  // The answer said `enabled: false`; a frame later the page has rendered what it does with it.
  await page.evaluate(() => new Promise((r) => (globalThis as any).requestAnimationFrame(() => setTimeout(r, 50))));
  assert.is(await page.getByTestId('show-panel').count(), 0);
  assert.ok(await page.locator('#desks-h').isVisible(), 'the rest of the page is there');
  assert.not.ok(
    wsSent.some((f) => f.includes('"show"')),
    'no subscription to show',
  );
  assert.equal(errors, []);
});

test.run();
