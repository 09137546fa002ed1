// A plain load of the control page in Chromium, with a program that is not a generator: no answer of 400 or more and
// no console error while it loads and while the program changes (live input, another live input, a generator, back).
// And the config reload warning: GET /status and the status topic carrying `reloadError` (set between the page and
// the server) show an alert with its key, file and message, gone when the field is null.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { patientReq, req, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { launch, loaded, open, type Opened } from './browser.js';

let s: TestServer;
let browser: Browser;
let o: Opened;
let page: Page;

const until = (cond: () => Promise<boolean> | boolean, what: string): Promise<void> =>
  waitUntil(cond, 30000, 100).catch(() => {
    throw new Error(`timed out: ${what}`);
  });
const current = async (): Promise<string> =>
  JSON.parse((await req('GET', `${s.base}/api/v1/sources/current`, { timeoutMs: 15000 })).text).name;
/** Selects over HTTP; a loaded machine may pass the activation deadline, so the state is what is waited for. */
async function take(route: string, name: string): Promise<void> {
  await patientReq('POST', `${s.base}/api/v1${route}`, { body: { name }, timeoutMs: 15000 });
  await until(async () => (await current()) === name, `${name} on program`);
}
const clean = (): void => {
  assert.equal(o.failed, [], 'answers of 400 or more');
  assert.equal(o.consoleErrors, [], 'console errors');
  assert.equal(o.errors, [], 'page errors');
};

test.before(async () => {
  s = await startServer({
    config: {
      live: {
        test: [
          { id: 'red', name: 'Red Card', pattern: 'color=c=red:size=160x120:rate=10' },
          { id: 'blue', name: 'Blue Card', pattern: 'color=c=blue:size=160x120:rate=10' },
        ],
        v4l2: { enabled: false },
      },
    },
  });
  browser = await launch();
  await take('/inputs/live/select', 'Red Card');
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
});

test('a live input on program: the page loads without a failed request or a console error', async () => {
  o = await open(browser, `${s.base}/ui/`);
  page = o.page;
  await loaded(page);
  await until(async () => (await page.getByTestId('program-name').innerText()) === 'Red Card', 'program name shown');
  await page.getByTestId('generator-none').waitFor();
  clean();
});

test('program changes (live, generator, live): the generator panel follows without a failed request', async () => {
  await take('/inputs/live/select', 'Blue Card');
  await until(async () => (await page.getByTestId('program-name').innerText()) === 'Blue Card', 'blue shown');
  await page.getByTestId('generator-none').waitFor();
  await take('/sources/select', 'Plasma');
  await page.locator('[data-testid="generator"] .params[data-source="source:plasma"]').waitFor({ timeout: 30000 });
  await take('/inputs/live/select', 'Red Card');
  await until(async () => (await page.getByTestId('program-name').innerText()) === 'Red Card', 'red shown again');
  await page.getByTestId('generator-none').waitFor();
  clean();
});

test('a refused config reload in GET /status and the status topic shows as an alert until it is null', async () => {
  const refused = { key: 'render.fps', file: '/etc/vjd/config.json', message: 'must be at most 120', at: new Date().toISOString() };
  let reloadError: typeof refused | { key: null; file: string; message: string; at: string } | null = refused;
  const ctx = await browser.newContext();
  const p = await ctx.newPage();
  await p.route(/\/api\/v1\/status$/, async (route) => {
    const real = await route.fetch();
    await route.fulfill({ response: real, json: { ...(await real.json()), reloadError } });
  });
  await p.routeWebSocket(/\/api\/v1\/events$/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((m) => {
      const msg = typeof m === 'string' ? JSON.parse(m) : null;
      if (msg?.type !== 'event' || msg.topic !== 'status') return void ws.send(m);
      ws.send(JSON.stringify({ ...msg, data: { ...msg.data, reloadError } }));
    });
    ws.onMessage((m) => server.send(m));
  });
  await p.goto(`${s.base}/ui/`);
  await loaded(p);
  const alert = p.getByRole('alert');
  await alert.waitFor({ timeout: 20000 });
  const text = await alert.innerText();
  for (const part of ['render.fps', '/etc/vjd/config.json', 'must be at most 120']) assert.ok(text.includes(part), `${part} in ${text}`);
  assert.is(await p.getByTestId('reload-error-key').innerText(), 'render.fps');
  // The next status event (once a second) without the error takes the banner away.
  reloadError = null;
  await until(async () => (await p.getByTestId('reload-error').count()) === 0, 'banner gone');
  // A file that does not parse has no key: the file and message alone.
  reloadError = { key: null, file: '/etc/vjd/config.json', message: 'Unexpected token } in JSON', at: new Date().toISOString() };
  await until(async () => (await p.getByTestId('reload-error').count()) === 1, 'banner back');
  assert.is(await p.getByTestId('reload-error-key').count(), 0);
  assert.is(await p.getByTestId('reload-error-message').innerText(), 'Unexpected token } in JSON');
  await ctx.close();
});

test.run();
