// The output-mapping editor in Chromium at phone width, against a server with one (disabled) 4:3 recording: closed,
// nothing of it is on the page; Map opens it under the output with a stage of the output's shape and the program
// preview on it; a corner dragged with the mouse lands in GET /outputs about where it was dropped, and the picture's
// matrix3d puts the image's corners on the handles; the arrow keys move a corner by 1 % (0.1 % with Shift); a corner
// dragged across folds the quad: the refusal shows and the last good map stays; soft edges, the test card and the
// slice land in the map (a slice past the edge is refused); a mesh set over HTTP is shown read-only; Reset is null.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { ARTEFACTS, launch, loaded, open, PHONE, type Opened, showTab } from './browser.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const OUT = { id: 'rec', kind: 'record', enabled: false, width: 200, height: 150, fps: 10 };
let s: TestServer;
let browser: Browser;
let o: Opened;
let page: Page;

const api = async (method: string, p: string, body?: unknown) => {
  const r = await req(method, `${s.base}/api/v1${p}`, { body, timeoutMs: 15000 });
  assert.ok(r.status < 300, `${method} ${p}: ${r.status} ${r.text}`);
  return r.json();
};
const mapNow = async (): Promise<any> => (await api('GET', '/outputs')).items.find((i: any) => i.id === OUT.id).map;
const until = (cond: () => Promise<boolean> | boolean, what: string): Promise<void> =>
  waitUntil(cond, 30_000, 50).catch(() => {
    throw new Error(`timed out: ${what}`);
  });
const near = (a: number[], b: number[], tol: number): boolean => a.every((v, i) => Math.abs(v - b[i]!) <= tol);
const corner = (i: number) => page.getByTestId(`om-corner-${i}`);
const UNIT = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 1],
];

/** The stage in the middle of the viewport (clear of the sticky status bar), and its box. */
async function stageBox(): Promise<{ x: number; y: number; width: number; height: number }> {
  await page.evaluate(() =>
    (globalThis as any).document.querySelector('[data-testid="om-stage"]').scrollIntoView({ block: 'center', inline: 'center' }),
  );
  return (await page.getByTestId('om-stage').boundingBox())!;
}

/** Presses on a corner handle's centre, moves to `to` (shares of the stage) in `steps`, and lets go. */
async function drag(i: number, to: [number, number], steps: number): Promise<void> {
  const st = await stageBox();
  const h = (await corner(i).boundingBox())!;
  await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
  await page.mouse.down();
  await page.mouse.move(st.x + to[0] * st.width, st.y + to[1] * st.height, { steps });
  await page.mouse.up();
}

test.before(async () => {
  try {
    s = await startServer({ config: { render: { width: 160, height: 90, fps: 20 }, outputs: [OUT] } });
    browser = await launch();
    o = await open(browser, `${s.base}/ui/`, PHONE);
    page = o.page;
    await loaded(page);
    await showTab(page, 'outputs');
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

test('closed, no editor; Map opens it under the output: a stage of the output shape with the program preview', async () => {
  const button = page.getByTestId(`out-map-${OUT.id}`);
  await button.waitFor();
  assert.is(await page.getByTestId(`om-${OUT.id}`).count(), 0, 'nothing mounted while closed');
  assert.is(await button.getAttribute('aria-expanded'), 'false');
  await button.click();
  await page.getByTestId('om-stage').waitFor();
  assert.is(await button.getAttribute('aria-expanded'), 'true');
  const st = await stageBox();
  assert.ok(Math.abs(st.width / st.height - OUT.width / OUT.height) < 0.02, `stage ${st.width}×${st.height}`);
  assert.is(await corner(3).count(), 1, 'four handles');
  await until(async () => ((await page.getByTestId('om-picture').getAttribute('src')) ?? '').startsWith('blob:'), 'a preview frame');
  // The same size and rate the program panel asks for, so the server encodes one preview for both.
  const previews = o.urls.filter((u) => u.includes('/output/preview.mjpeg'));
  assert.ok(previews.length >= 2, previews.join('\n'));
  assert.ok(
    previews.every((u) => u.endsWith('?size=480&fps=15')),
    previews.join('\n'),
  );
  assert.is(await mapNow(), null);
});

test('a corner dragged with the mouse lands about where it was dropped; the picture is pinned with matrix3d', async () => {
  await drag(0, [0.2, 0.1], 8);
  let map: any;
  await until(async () => (map = await mapNow())?.corners && near(map.corners[0], [0.2, 0.1], 0.02), 'corner 0 moved');
  assert.equal(map.corners.slice(1), UNIT.slice(1), 'the others where they were');
  const st = await stageBox();
  const h = (await corner(0).boundingBox())!;
  assert.ok(near([h.x + h.width / 2, h.y + h.height / 2], [st.x + 0.2 * st.width, st.y + 0.1 * st.height], 0.02 * st.width), 'handle');
  // The image box's corners, through its computed transform, land on the map's corners (in stage pixels).
  const landed = await page.evaluate(() => {
    const g = globalThis as any;
    const img = g.document.querySelector('[data-testid="om-picture"]');
    const m = new g.DOMMatrix(g.getComputedStyle(img).transform);
    const [w, h] = [img.offsetWidth, img.offsetHeight];
    const at = ([x, y]: [number, number]) => {
      const p = m.transformPoint(new g.DOMPoint(x * w, y * h));
      return [p.x / p.w / w, p.y / p.w / h];
    };
    return { transform: g.getComputedStyle(img).transform as string, corners: [at([0, 0]), at([1, 0]), at([1, 1]), at([0, 1])] };
  });
  assert.match(landed.transform, /^matrix3d\(/);
  landed.corners.forEach((c, i) => assert.ok(near(c, map.corners[i], 0.005), `image corner ${i} at ${c}, map ${map.corners[i]}`));
});

test('arrow keys move the focused corner by 1 %, 0.1 % with Shift', async () => {
  await corner(1).focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Shift+ArrowDown');
  await until(async () => near((await mapNow()).corners[1], [0.97, 0.001], 1e-6), 'corner 1 at 0.97, 0.001');
  assert.ok(near((await mapNow()).corners[0], [0.2, 0.1], 0.02), 'corner 0 kept');
});

test('a corner dragged across folds the quad: the refusal shows, the last good map stays, the handle goes back', async () => {
  const before = (await mapNow()).corners;
  await drag(0, [0.9, 0.9], 1);
  const error = page.getByTestId('om-error');
  await error.waitFor();
  assert.match((await error.textContent()) ?? '', /^map\.corners: .*convex/);
  assert.equal((await mapNow()).corners, before, 'kept over HTTP');
  const st = await stageBox();
  await until(async () => {
    const h = (await corner(0).boundingBox())!;
    return near([h.x + h.width / 2, h.y + h.height / 2], [st.x + before[0][0] * st.width, st.y + before[0][1] * st.height], 2);
  }, 'the handle back at the accepted corner');
});

test('soft edges, the test card and the slice land in the map; a slice past the edge is refused', async () => {
  await page.getByTestId('om-blend-left').fill('0.1');
  await page.getByTestId('om-blend-left').press('Tab');
  await until(async () => (await mapNow()).blend?.left === 0.1, 'blend.left');
  await until(async () => (await page.getByTestId('om-error').count()) === 0, 'the refusal cleared by an accepted change');
  // A click, not check(): the outputs' pushes re-render the box from the accepted map until the answer comes.
  await page.getByTestId('om-testcard').click();
  await until(async () => (await mapNow()).testCard === true, 'testCard');
  await until(() => page.getByTestId('om-testcard').isChecked(), 'the test card shown on');
  await page.getByTestId('om-slice-w').fill('0.5');
  await page.getByTestId('om-slice-w').press('Tab');
  await until(async () => JSON.stringify((await mapNow()).slice) === JSON.stringify({ x: 0, y: 0, w: 0.5, h: 1 }), 'slice');
  const clip = () => page.getByTestId('om-picture').evaluate((e) => (globalThis as any).getComputedStyle(e).clipPath as string);
  await until(async () => /^inset\(0(px|%)? 50% 0(px|%)? 0(px|%)?\)$/.test(await clip()), 'the picture clipped to the slice');
  await page.getByTestId('om-slice-x').fill('0.8');
  await page.getByTestId('om-slice-x').press('Tab');
  const error = page.getByTestId('om-error');
  await error.waitFor();
  assert.match((await error.textContent()) ?? '', /^map\.slice: /);
  await until(async () => (await page.getByTestId('om-slice-x').inputValue()) === '0', 'the field back to the accepted x');
  const map = await mapNow();
  assert.equal(map.slice, { x: 0, y: 0, w: 0.5, h: 1 });
  assert.is(map.blend.left, 0.1);
  assert.is(map.corners.length, 4, 'the corners kept through the field changes');
});

test('a mesh set over HTTP is shown read-only with a note; Reset sends null and the handles come back', async () => {
  const points = [
    [0, 0],
    [0.5, 0.05],
    [1, 0],
    [0, 1],
    [0.5, 0.95],
    [1, 1],
  ];
  await api('POST', `/outputs/${OUT.id}/map`, { map: { mesh: { cols: 2, rows: 1, points } } });
  // Closed and opened again: the editor reads the map when it opens.
  await page.getByTestId(`out-map-${OUT.id}`).click();
  await until(async () => (await page.getByTestId(`om-${OUT.id}`).count()) === 0, 'closed');
  await page.getByTestId(`out-map-${OUT.id}`).click();
  await until(async () => (await page.locator('[data-testid="om-mesh"] circle').count()) === 6, 'six mesh points');
  assert.is(await corner(0).count(), 0, 'no corner handles over a mesh');
  assert.match((await page.getByTestId(`om-${OUT.id}`).textContent()) ?? '', /2×1 mesh .*read-only/);
  await page.getByTestId('om-reset').click();
  await until(async () => (await mapNow()) === null, 'map null');
  await corner(0).waitFor();
  assert.is(await page.getByTestId('om-mesh').count(), 0);
  assert.is(await page.getByTestId('om-state').textContent(), 'The program as it is');
});

test('a touch drag moves a corner too', async () => {
  const ctx = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
  try {
    const p = await ctx.newPage();
    const errors: string[] = [];
    p.on('pageerror', (e) => void errors.push(e.message));
    await p.goto(`${s.base}/ui/`);
    await loaded(p);
    await showTab(p, 'outputs');
    await p.getByTestId(`out-map-${OUT.id}`).tap();
    const handle = p.getByTestId('om-corner-2');
    await handle.waitFor();
    await p.evaluate(() => (globalThis as any).document.querySelector('[data-testid="om-stage"]').scrollIntoView({ block: 'center' }));
    const st = (await p.getByTestId('om-stage').boundingBox())!;
    const h = (await handle.boundingBox())!;
    // Touch events through the debugger protocol: Chromium turns them into pointer events of type touch.
    const cdp = await ctx.newCDPSession(p);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    const [x0, y0] = [h.x + h.width / 2, h.y + h.height / 2];
    const [x1, y1] = [st.x + 0.8 * st.width, st.y + 0.85 * st.height];
    await touch('touchStart', x0, y0);
    for (let i = 1; i <= 6; i++) await touch('touchMove', x0 + ((x1 - x0) * i) / 6, y0 + ((y1 - y0) * i) / 6);
    await touch('touchEnd', x1, y1);
    let map: any;
    await until(async () => (map = await mapNow())?.corners && near(map.corners[2], [0.8, 0.85], 0.02), 'corner 2 moved by touch');
    assert.equal(map.corners[0], [0, 0], 'the others where they were');
    assert.equal(errors, []);
  } finally {
    await ctx.close();
  }
});

test('phone width: no horizontal scrolling, 44 px controls, no serious axe finding, no page errors beyond the two refusals', async () => {
  // Through the debugger protocol: the page's CSP (rightly) refuses an injected inline script.
  await page.evaluate(await readFile(AXE, 'utf8'));
  const found = await page.evaluate(async () => {
    const g = globalThis as any;
    const r = await g.axe.run(g.document.querySelector('[data-testid="om-rec"]'), { resultTypes: ['violations'] });
    return r.violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical').map((v: any) => `${v.id}: ${v.help}`);
  });
  assert.equal(found, []);
  const small = await page.evaluate(() =>
    [...(globalThis as any).document.querySelectorAll('[data-testid="om-rec"] :is(button, select, input:not([type=checkbox]))')]
      .filter((e: any) => e.offsetParent !== null && (e.getBoundingClientRect().height < 44 || e.getBoundingClientRect().width < 44))
      .map((e: any) => e.outerHTML.slice(0, 80)),
  );
  assert.equal(small, [], 'controls under 44 px');
  const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
  assert.ok(width <= PHONE.width, `scroll width ${width}`);
  await mkdir(ARTEFACTS, { recursive: true });
  await page.evaluate(() => ((globalThis as any).document.querySelector('.statusbar').style.position = 'static'));
  await page.getByTestId(`om-${OUT.id}`).screenshot({ path: join(ARTEFACTS, 'output-map.png') });
  assert.equal(o.errors, []);
  const refused = `400 ${s.base}/api/v1/outputs/${OUT.id}/map`;
  assert.ok(o.failed.length >= 2 && o.failed.every((f) => f === refused), o.failed.join('\n'));
  assert.ok(
    o.consoleErrors.every((e) => e.includes('status of 400')),
    o.consoleErrors.join('\n'),
  );
});

test.run();
