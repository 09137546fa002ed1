// The control page in Chromium against a running vjd with an API key: the key prompt, no key in any URL, and each
// panel driven by clicks, drags and typing, with the server state checked over HTTP after each action and the page
// checked after changes made over HTTP.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { launch, loaded, open, ready, screenshot, type Opened } from './browser.js';

const KEY = 'ui-page-key-5f2a';
const auth = { headers: { 'x-api-key': KEY } };
let s: TestServer;
let browser: Browser;
let o: Opened;
let page: Page;

const api = async (method: string, path: string, body?: unknown): Promise<any> => {
  const r = await req(method, `${s.base}/api/v1${path}`, { ...auth, body, timeoutMs: 15000 });
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
  return r.json();
};
const until = (cond: () => Promise<boolean> | boolean, what: string, ms = 15000): Promise<void> =>
  waitUntil(cond, ms, 100).catch(() => {
    throw new Error(`timed out: ${what}`);
  });

test.before(async () => {
  s = await startServer({ config: { server: { apiKey: KEY } } });
  browser = await launch();
});
test.after(async () => {
  await browser?.close();
  await s.cleanup();
});

test('auth: the page asks for the key, refuses a wrong one, keeps the right one for the tab', async () => {
  o = await open(browser, `${s.base}/`);
  page = o.page;
  await ready(page);
  assert.ok(page.url().endsWith('/ui/'), page.url());
  await page.getByLabel('API key').fill('wrong-key');
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('alert').filter({ hasText: 'refused' }).waitFor();
  await page.getByLabel('API key').fill(KEY);
  await page.getByRole('button', { name: 'Connect' }).click();
  await loaded(page);
  assert.is(await page.evaluate('sessionStorage.getItem("vjd.apiKey")'), KEY);
  assert.is(await page.getByTestId('keystate').innerText(), 'key set');
  // A reload in the same tab goes straight to the panels.
  await page.reload();
  await loaded(page);
  assert.is(await page.locator('#api-key').count(), 0);
});

test('program: blackout and dimmer both ways; the preview shows frames fetched with the header', async () => {
  await page.getByTestId('blackout').click();
  await until(async () => (await api('GET', '/global')).blackout === true, 'blackout on the server');
  await until(async () => (await page.getByTestId('blackout').getAttribute('aria-pressed')) === 'true', 'blackout pressed');
  await page.getByTestId('blackout').click();
  await until(async () => (await api('GET', '/global')).blackout === false, 'blackout off');
  await page.getByTestId('dimmer').fill('0.4');
  await until(async () => Math.abs((await api('GET', '/global')).dimmer - 0.4) < 1e-6, 'dimmer 0.4 on the server');
  await api('POST', '/global/dimmer', { value: 0.75 });
  await until(async () => (await page.getByTestId('dimmer').inputValue()) === '0.75', 'dimmer follows HTTP');
  await until(async () => ((await page.getByTestId('program-img').getAttribute('src')) ?? '').startsWith('blob:'), 'a preview frame');
});

test('palettes: a swatch selects, Next and HTTP changes show', async () => {
  await page.locator('.swatch[data-id="cyberpunk"]').click();
  await until(async () => (await api('GET', '/palettes/current')).id === 'cyberpunk', 'cyberpunk current');
  await until(async () => (await page.locator('.swatch[data-id="cyberpunk"]').getAttribute('aria-pressed')) === 'true', 'cyberpunk marked');
  const next = await api('POST', '/palettes/next');
  await until(async () => (await page.getByTestId('palette-current').innerText()) === next.current.name, 'next palette shown');
  await page.getByTestId('palette-next').click();
  await until(async () => (await api('GET', '/palettes/current')).id !== next.current.id, 'Next button moved on');
});

test('effects: add from the catalog search, toggle, parameters, reorder with keys and by dragging, remove', async () => {
  await page.getByTestId('add-effect').click();
  await page.getByTestId('effect-search').fill('bright');
  await page.locator('.catalog button[data-type="brightness_contrast"]').click();
  await until(async () => (await api('GET', '/effects')).items.some((i: any) => i.type === 'brightness_contrast'), 'effect added');
  await api('POST', '/effects/add', { type: 'invert' });
  await page.locator('li.fx[data-type="invert"]').waitFor();
  // Toggle from the page, then from HTTP.
  // A click, not uncheck(): a push still on its way re-renders the box from the server's state until the change
  // lands, which uncheck() would take for a click that did nothing.
  await page.getByTestId('enabled-1').click();
  await until(async () => (await api('GET', '/effects')).items[0].enabled === false, 'disabled on the server');
  await until(async () => !(await page.getByTestId('enabled-1').isChecked()), 'shown disabled');
  await api('POST', '/effects/enabled', { index: 1, enabled: true });
  await until(() => page.getByTestId('enabled-1').isChecked(), 'enabled again on the page');
  // A float input from its description; parameters show without a click (each effect has its own Reset and preset).
  const bright = page.locator('li.fx[data-type="brightness_contrast"]');
  const slider = page.locator('#fx1-brightness');
  await slider.waitFor();
  const max = Number(await slider.getAttribute('max'));
  await slider.fill(String(max));
  await until(async () => {
    const fx = await api('GET', '/effects/1');
    return Math.abs(fx.inputs.find((i: any) => i.name === 'brightness').value - max) < 1e-6;
  }, 'brightness at max on the server');
  await bright.getByRole('button', { name: 'Reset', exact: true }).click();
  await until(async () => {
    const fx = await api('GET', '/effects/1');
    const b = fx.inputs.find((i: any) => i.name === 'brightness');
    return b.value === b.default;
  }, 'reset to default');
  await bright.getByLabel('Preset name').fill('UI Look');
  await bright.getByRole('button', { name: 'Save as preset' }).click();
  await until(async () => (await api('GET', '/actions')).items.some((a: any) => a.name === 'UI Look'), 'preset saved as an action');
  // Keyboard reorder: ArrowDown on the handle of the first effect.
  await page.getByRole('button', { name: /^Move Brightness/ }).press('ArrowDown');
  await until(
    async () => (await api('GET', '/effects')).items.map((i: any) => i.type).join() === 'invert,brightness_contrast',
    'moved down by key',
  );
  // Drag: the handle of the second (brightness) onto the first row.
  const handle = page.getByRole('button', { name: /^Move Brightness/ });
  await handle.waitFor();
  await handle.dragTo(page.locator('li.fx').first(), { targetPosition: { x: 10, y: 4 } });
  await until(
    async () => (await api('GET', '/effects')).items.map((i: any) => i.type).join() === 'brightness_contrast,invert',
    'moved up by drag',
  );
  // HTTP changes show.
  await api('POST', '/effects/remove', { index: 2 });
  await until(async () => (await page.locator('li.fx').count()) === 1, 'removal over HTTP shown');
  await page.getByRole('button', { name: 'Remove Brightness / Contrast' }).click();
  await until(async () => (await api('GET', '/effects')).count === 0, 'removed from the page');
});

test('actions: a button runs its action', async () => {
  await page.locator('.grid-buttons button[data-id="preset.mandala"]').click();
  await until(
    async () => (await api('GET', '/effects')).items.some((i: any) => i.presetId === 'mandala' || i.presetId === 'preset.mandala'),
    'preset action added its effect',
  );
  await api('POST', '/effects/remove', { index: 1 });
});

test('browse: folders open, search uses name matching, take activates', async () => {
  await page.getByTestId('browse-list').locator('.item[data-name="Sources"]').click();
  await until(async () => (await page.getByTestId('browse-path').innerText()) === '/sources', 'in /sources');
  await page.getByTestId('browse-search').fill('color-BARS');
  await page.getByTestId('browse-list').locator('.item[data-name="Color Bars"]').waitFor();
  assert.is(await page.getByTestId('browse-list').locator('.item').count(), 1);
  await page.getByTestId('browse-list').locator('.item[data-name="Color Bars"]').dblclick();
  await until(async () => (await api('GET', '/sources/current')).id === 'source:color_bars', 'color bars on program');
  await until(async () => (await page.getByTestId('program-name').innerText()) === 'Color Bars', 'program name shown');
  // Keyboard: the list is one listbox; Enter takes the active row.
  await page.getByTestId('browse-search').fill('plasma');
  await page.getByTestId('browse-list').locator('.item[data-name="Plasma"]').waitFor();
  await page.getByTestId('browse-list').focus();
  await page.keyboard.press('Enter');
  await until(async () => (await api('GET', '/sources/current')).id === 'source:plasma', 'plasma taken by Enter');
});

test('outputs: add a recording, enable and disable it, download the file', async () => {
  await page.getByTestId('output-kind').selectOption('record');
  await page.getByTestId('output-name').fill('ui-rec');
  await page.getByRole('button', { name: 'Add output' }).click();
  await until(async () => (await api('GET', '/outputs')).items.some((x: any) => x.name === 'ui-rec'), 'output added');
  const out = (await api('GET', '/outputs')).items.find((x: any) => x.name === 'ui-rec');
  const box = page.locator(`li.out[data-id="${out.id}"] input[type="checkbox"]`);
  // Clicks, not check()/uncheck(): the running output's pushes re-render the box from the server until a change lands.
  if (!out.enabled) await box.click();
  // An encoder starting on a loaded box may take a while.
  await until(async () => (await page.getByTestId(`out-state-${out.id}`).innerText()) === 'running', 'running shown', 45_000);
  await box.click();
  await until(
    async () => (await api('GET', '/outputs')).items.find((x: any) => x.id === out.id).enabled === false,
    'disabled on the server',
  );
  await until(async () => {
    const r = await api('GET', '/recordings');
    return r.items.some((x: any) => x.complete);
  }, 'a complete recording');
  await page.getByRole('button', { name: 'Refresh' }).click();
  const link = page.locator('.recordings button.link:not([disabled])').first();
  await link.waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  assert.match(download.suggestedFilename(), /\.mkv$/);
});

test('the key never appears in a URL; every request stayed on this server', async () => {
  await screenshot(page, 'page-laptop-with-key');
  assert.ok(o.urls.length > 10, `${o.urls.length} requests`);
  for (const u of o.urls) {
    assert.not.ok(u.includes(KEY), `key in ${u}`);
    assert.ok(u.startsWith(s.base) || u.startsWith(s.base.replace('http', 'ws')) || u.startsWith('blob:') || u.startsWith('data:'), u);
  }
  // Where the events socket exists, its first frame carries the key (browsers cannot set headers on it).
  if (o.wsSent.length > 0) assert.equal(JSON.parse(o.wsSent[0]!), { type: 'auth', key: KEY });
  assert.equal(o.errors, []);
});

test('a 401 returns to the prompt', async () => {
  await page.evaluate('sessionStorage.setItem("vjd.apiKey", "stale")');
  await page.reload();
  await page.getByLabel('API key').waitFor();
});

test.run();
