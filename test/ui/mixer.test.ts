// The page against the real A/B mixer, generator parameters and the status bar's client count, in Chromium: cue by
// click, take with the chosen transition (button and double-click), the T-bar, each checked over HTTP (GET /mix,
// GET /sources/current/params); and cue/position/take and generator values made over HTTP shown on the page through
// the events socket.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { patientReq, req, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { launch, loaded, open, type Opened } from './browser.js';

let s: TestServer;
let browser: Browser;
let o: Opened;
let page: Page;

const api = async (method: string, path: string, body?: unknown): Promise<any> => {
  const r = await patientReq(method, `${s.base}/api/v1${path}`, { body, timeoutMs: 15000 });
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
  return r.json();
};
const until = (cond: () => Promise<boolean> | boolean, what: string): Promise<void> =>
  waitUntil(cond, 20000, 100).catch(() => {
    throw new Error(`timed out: ${what}`);
  });
const mix = (): Promise<any> => api('GET', '/mix');
const row = (name: string) => page.getByTestId('browse-list').locator(`.item[data-name="${name}"]`);
const param = async (name: string): Promise<any> =>
  (await api('GET', '/sources/current/params')).inputs.find((i: any) => i.name === name).value;
const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-3;

test.before(async () => {
  s = await startServer();
  browser = await launch();
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
});

test('status bar: the events clients from GET /status, updated by the status topic', async () => {
  o = await open(browser, `${s.base}/ui/`);
  page = o.page;
  await loaded(page);
  await until(async () => (await page.getByTestId('clients').innerText()) === '1 client connected', 'one client');
  const other = await open(browser, `${s.base}/ui/`);
  await loaded(other.page);
  await until(async () => (await api('GET', '/status')).events.clients === 2, 'two sockets on the server');
  await until(async () => (await page.getByTestId('clients').innerText()) === '2 clients connected', 'two clients on the first page');
  await other.page.context().close();
  await until(async () => (await page.getByTestId('clients').innerText()) === '1 client connected', 'back to one');
});

test('generator panel: "not a generator" while the program is none', async () => {
  const r = await req('GET', `${s.base}/api/v1/sources/current/params`);
  assert.is(r.status, 409);
  await page.getByTestId('generator-none').waitFor();
  assert.match(await page.getByTestId('generator-none').innerText(), /not a generator/);
});

test('cue by click, take with the chosen transition by the Take button', async () => {
  await row('Sources').click();
  await until(async () => (await page.getByTestId('browse-path').innerText()) === '/sources', 'in /sources');
  await row('Plasma').click();
  await until(async () => (await mix()).preview?.id === 'source:plasma', 'plasma cued on the server');
  await until(async () => (await page.getByTestId('preview-name').innerText()) === 'Plasma', 'plasma on the preview bus');
  await until(async () => ((await row('Plasma').getAttribute('class')) ?? '').includes('cued'), 'plasma row marked cued');
  await page.getByTestId('transition').selectOption('fade');
  await page.getByTestId('duration').fill('400');
  const [taken] = await Promise.all([page.waitForRequest((r) => r.url().endsWith('/api/v1/mix/take')), page.getByTestId('take').click()]);
  assert.equal(taken.postDataJSON(), { transition: 'fade', durationMs: 400 });
  await until(async () => {
    const m = await mix();
    return m.program?.id === 'source:plasma' && !m.inTransition;
  }, 'plasma on program after the fade');
  const m = await mix();
  assert.equal(m.transition, { type: 'fade', durationMs: 400 });
  await until(async () => (await page.getByTestId('program-name').innerText()) === 'Plasma', 'program name on the page');
});

test("generator panel: the program generator's inputs; checkbox, slider keys, colour, XY pad set them", async () => {
  await page.locator('#gen-speed').waitFor();
  // Float slider with the keyboard: each ArrowRight is 1% of the range (step "any").
  const before = await param('speed');
  await page.locator('#gen-speed').focus();
  // One key at a time, each seen on the server: a key pressed while an older value's event is still on its way
  // would step from that value (the page's echo, not the key, is what a loaded box delays).
  for (let i = 1; i <= 5; i++) {
    await page.keyboard.press('ArrowRight');
    await until(async () => near(await param('speed'), before + (i * 4) / 100), `speed raised ${i} step(s)`);
  }
  // Bool checkbox by click and by Space.
  // A click, not check(): the speed keys' generator pushes may still re-render the box before this change lands.
  await page.locator('#gen-usePalette').click();
  await until(async () => (await param('usePalette')) === true, 'usePalette on');
  await until(() => page.locator('#gen-usePalette').isChecked(), 'shown on');
  await page.locator('#gen-usePalette').press('Space');
  await until(async () => (await param('usePalette')) === false, 'usePalette off by Space');
});

test('generator panel: another generator taken over HTTP shows its inputs; colour and XY pad', async () => {
  await api('POST', '/mix/cue', { id: 'source:rings' });
  await api('POST', '/mix/take', { transition: 'cut' });
  await page.locator('#gen-ringColor').waitFor();
  await page.locator('#gen-ringColor').fill('#ff8000');
  await until(async () => {
    const v = await param('ringColor');
    return near(v[0], 1) && near(v[1], 128 / 255) && near(v[2], 0);
  }, 'ring colour orange');
  const pad = page.getByRole('slider', { name: /^Center/ });
  const box = (await pad.boundingBox())!;
  await pad.click({ position: { x: box.width * 0.25, y: box.height * 0.25 } });
  await until(async () => {
    const [x, y] = await param('center');
    return Math.abs(x - 0.25) < 0.03 && Math.abs(y - 0.75) < 0.03;
  }, 'center at the clicked point (y up)');
  const [x0, y0] = await param('center');
  await pad.press('ArrowRight');
  await until(async () => near((await param('center'))[0], x0 + 0.02), 'ArrowRight moves x');
  await pad.press('ArrowDown');
  await until(async () => near((await param('center'))[1], y0 - 0.02), 'ArrowDown moves y');
  // A value set elsewhere (another operator, OSC, a script) reaches the panel through the generator topic.
  await api('POST', '/sources/params', { values: { ringColor: '#00ff00' } });
  await until(async () => (await page.locator('#gen-ringColor').inputValue()) === '#00ff00', 'ring colour set over HTTP shown');
});

test('double-click takes with the chosen transition; the T-bar drives the position and completes the take', async () => {
  await page.getByTestId('transition').selectOption('cut');
  await row('Color Bars').dblclick();
  await until(async () => (await mix()).program?.id === 'source:color_bars', 'color bars taken by double-click');
  assert.is((await mix()).transition.type, 'cut');
  await until(async () => (await page.getByTestId('program-name').innerText()) === 'Color Bars', 'program on the page');
  // The old program waits on preview: the T-bar moves between the two.
  await until(async () => (await mix()).preview?.id === 'source:rings', 'rings back on preview');
  await until(async () => !(await page.getByTestId('tbar').isDisabled()), 'T-bar enabled');
  await page.getByTestId('tbar').fill('0.5');
  await until(async () => near((await mix()).position, 0.5), 'position 0.5 on the server');
  assert.is((await mix()).program.id, 'source:color_bars');
  await page.getByTestId('tbar').focus();
  await page.keyboard.press('End');
  await until(async () => (await mix()).program?.id === 'source:rings', 'T-bar at 1 completed the take');
  assert.is((await mix()).position, 0);
  await until(async () => (await page.getByTestId('program-name').innerText()) === 'Rings', 'rings on program on the page');
});

test('cue, position and take made over HTTP show on the page (mix topic)', async () => {
  await api('POST', '/mix/cue', { id: 'source:plasma' });
  await until(async () => (await page.getByTestId('preview-name').innerText()) === 'Plasma', 'cue shown');
  await until(async () => ((await row('Plasma').getAttribute('class')) ?? '').includes('cued'), 'row marked');
  await api('POST', '/mix/position', { value: 0.3 });
  await until(async () => (await page.getByTestId('tbar').inputValue()) === '0.3', 'T-bar follows the position');
  await api('POST', '/mix/take', { transition: 'dip', durationMs: 300 });
  await until(async () => (await page.getByTestId('program-name').innerText()) === 'Plasma', 'take shown');
  // The take made the mixer's transition dip/300: the page shows what its next take will use.
  await until(async () => (await page.getByTestId('transition').inputValue()) === 'dip', 'transition follows the mixer');
  assert.is(await page.getByTestId('duration').inputValue(), '300');
  await until(async () => (await page.getByTestId('preview-name').innerText()) === 'Rings', 'old program on preview');
  await until(async () => ((await row('Plasma').getAttribute('class')) ?? '').includes('onair'), 'row on air');
  // The generator panel follows the program: plasma's inputs, not rings'.
  await page.locator('#gen-scale').waitFor();
  assert.is(await page.locator('#gen-ringColor').count(), 0);
  assert.equal(o.errors, []);
});

test.run();
