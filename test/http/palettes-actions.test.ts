// Palettes and actions over real HTTP: the palette library (built-ins, JSON and GPL files, edits, deletion),
// current/next/select with persistence, palette colors in rendered pixels, and every action category.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, tempDir, waitUntil, type TestServer, type Res } from '../helpers/server.js';
import { near } from '../helpers/images.js';

let s: TestServer;
let dataDir: string;
let paletteDir: string;
let presetDir: string;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = async (p: string): Promise<any> => (await req('GET', api(p))).json();
const post = (p: string, body?: unknown): Promise<Res> =>
  req('POST', api(p), { ...(body !== undefined ? { body } : {}), timeoutMs: 15000 });

function errorOf(r: Res, status: number, code: string): any {
  assert.is(r.status, status, r.text);
  const b = r.json();
  assert.is(b.error, true);
  assert.is(b.code, code);
  return b;
}

async function center(): Promise<number[]> {
  const r = await post('/_test/sample', { points: [[0.5, 0.5]] });
  assert.is(r.status, 200, r.text);
  return r.json().pixels[0];
}

function config(): Record<string, unknown> {
  return {
    palettes: { dirs: [paletteDir] },
    presets: { dirs: [presetDir] },
    live: { test: [{ id: 'red', name: 'Red', pattern: 'color=c=red:size=320x180:rate=10' }], streams: [], v4l2: { enabled: false } },
  };
}

test.before(async () => {
  dataDir = await tempDir();
  paletteDir = join(dataDir, 'palettes');
  presetDir = join(dataDir, 'presets');
  await mkdir(paletteDir, { recursive: true });
  await mkdir(presetDir, { recursive: true });
  await writeFile(join(paletteDir, 'all-red.json'), JSON.stringify({ name: 'All Red', colors: ['#ff0000'] }));
  await writeFile(join(paletteDir, 'all-blue.json'), JSON.stringify({ name: 'All Blue', colors: ['#0000FF'] }));
  await writeFile(
    join(paletteDir, 'stage-wash.gpl'),
    'GIMP Palette\nName: Stage Wash\nColumns: 2\n# comment\n255 128   0\tamber\n 0 0 255 blue\n',
  );
  await writeFile(join(paletteDir, 'broken.gpl'), 'GIMP Palette\nName: Broken\n300 0 0 too bright\n');
  await writeFile(join(presetDir, 'half-hue.json'), JSON.stringify({ name: 'Half Hue', effect: 'hue_shift', inputs: { shift: 0.5 } }));
  await writeFile(join(presetDir, 'bad-preset.json'), JSON.stringify({ name: 'Bad', effect: 'hue_shift', inputs: { nope: 1 } }));
  s = await startServer({ dataDir, config: config() });
});

test.after(async () => {
  await s?.cleanup();
});

test('GET /palettes: built-ins then folder files; index, id, name, upper-case colors; the first is current on a fresh start', async () => {
  const b = await get('/palettes');
  assert.ok(b.count >= 15, `count ${b.count}`);
  assert.is(b.items.length, b.count);
  b.items.forEach((p: any, i: number) => {
    assert.is(p.index, i);
    assert.match(p.id, /^[a-z0-9-]+$/);
    assert.ok(p.colors.length >= 1);
    for (const c of p.colors) assert.match(c, /^#[0-9A-F]{6}$/);
  });
  assert.is(b.items.filter((p: any) => p.current).length, 1);
  assert.is(b.currentId, b.items[0].id);
  const red = b.items.find((p: any) => p.id === 'all-red');
  assert.equal(red.colors, ['#FF0000']);
  const gpl = b.items.find((p: any) => p.id === 'stage-wash');
  assert.is(gpl.name, 'Stage Wash');
  assert.equal(gpl.colors, ['#FF8000', '#0000FF']);
  assert.not.ok(b.items.some((p: any) => p.id === 'broken'));
  assert.match(s.logs(), /broken\.gpl/);
  const cur = await get('/palettes/current');
  assert.equal(Object.keys(cur).sort(), ['colors', 'id', 'index', 'name']);
  assert.is(cur.id, b.items[0].id);
});

test('POST /palettes/next walks the list and wraps around', async () => {
  const list = (await get('/palettes')).items;
  const start = (await get('/palettes/current')).index;
  for (let i = 1; i <= list.length; i++) {
    const r = await post('/palettes/next');
    assert.is(r.status, 200, r.text);
    const b = r.json();
    assert.is(b.success, true);
    assert.is(b.current.index, (start + i) % list.length);
  }
  assert.is((await get('/palettes/current')).index, start);
});

test('POST /palettes/select: id, flexible name, errors', async () => {
  let r = await post('/palettes/select', { name: '  all_RED ' });
  assert.is(r.status, 200, r.text);
  assert.is(r.json().current.id, 'all-red');
  r = await post('/palettes/select', { id: 'stage-wash' });
  assert.is(r.json().current.name, 'Stage Wash');
  const nf = errorOf(await post('/palettes/select', { id: 'nope' }), 404, 'ITEM_NOT_FOUND');
  assert.is(nf.details.requested, 'nope');
  assert.ok(nf.details.available.length <= 50 && nf.details.available.includes('all-red'));
  errorOf(await post('/palettes/select', {}), 400, 'INVALID_REQUEST');
  errorOf(await post('/palettes/select', { id: '' }), 400, 'INVALID_REQUEST');
  errorOf(await post('/palettes/select', { id: 'x'.repeat(513) }), 400, 'INVALID_REQUEST');
  errorOf(await post('/palettes/select', { id: 5 }), 400, 'INVALID_REQUEST');
  errorOf(await req('POST', api('/palettes/select'), { body: '{nope' }), 400, 'INVALID_REQUEST');
  assert.is((await get('/palettes/current')).id, 'stage-wash', 'rejected requests changed nothing');
});

test('the current palette reaches the shaders: palette_sweep draws red, then blue', async () => {
  assert.is((await post('/sources/select', { id: 'source:palette_sweep' })).status, 200);
  assert.is((await post('/palettes/select', { id: 'all-red' })).status, 200);
  await waitUntil(async () => near(await center(), [255, 0, 0], 20), 15000);
  assert.is((await post('/palettes/select', { id: 'all-blue' })).status, 200);
  await waitUntil(async () => near(await center(), [0, 0, 255], 20), 15000);
});

test('actions: the four categories, ids and names', async () => {
  const b = await get('/actions');
  assert.is(b.items.length, b.count);
  const cats = new Set(b.items.map((a: any) => a.category));
  for (const c of ['Effect Presets', 'Sources', 'Palettes', 'Global']) assert.ok(cats.has(c), c);
  const ids = b.items.map((a: any) => a.id);
  for (const id of [
    'preset.half_hue',
    'preset.neon_glow',
    'source.source:plasma',
    'source.red',
    'palette.next',
    'palette.all-red',
    'global.blackout-toggle',
    'global.dimmer-up',
  ])
    assert.ok(ids.includes(id), id);
  assert.not.ok(ids.includes('preset.bad_preset'));
  assert.match(s.logs(), /bad-preset\.json/);
  for (const a of b.items) assert.equal(Object.keys(a).sort(), ['category', 'id', 'name']);
});

test('effect preset action adds its effect with its input values and presetId; plain adds carry ""', async () => {
  assert.is((await post('/inputs/live/select', { id: 'red' })).status, 200);
  const plain = await post('/effects/add', { type: 'vignette' });
  assert.is(plain.status, 200);
  const r = await post('/actions/preset.half_hue');
  assert.is(r.status, 200, r.text);
  const b = r.json();
  assert.equal(b.action, { id: 'preset.half_hue', name: 'Half Hue', category: 'Effect Presets' });
  assert.is(b.result.type, 'hue_shift');
  assert.is(b.result.presetId, 'half_hue');
  const chain = (await get('/effects')).items;
  assert.equal(
    chain.map((i: any) => i.presetId),
    ['', 'half_hue'],
  );
  // shift 0.5 turns red into cyan (the default 0.25 would not).
  await waitUntil(async () => near(await center(), [0, 255, 255], 50), 15000);
  await waitUntil(async () => {
    const saved = JSON.parse(await readFile(join(dataDir, 'state.json'), 'utf8'));
    return saved.chain[1]?.presetId === 'half_hue' && saved.chain[1]?.inputs?.shift === 0.5;
  }, 15000);
  for (let i = 0; i < 2; i++) assert.is((await post('/effects/remove', { index: 1 })).status, 200);
});

test('effect preset action follows the add rules: ceiling 403, CHAIN_BUSY 503 with nothing changed', async () => {
  for (let i = 0; i < 8; i++) assert.is((await post('/effects/add', { type: 'invert' })).status, 200);
  errorOf(await post('/actions/preset.neon_glow'), 403, 'EFFECT_LIMIT_REACHED');
  for (let i = 0; i < 8; i++) assert.is((await post('/effects/remove', { index: 1 })).status, 200);
  assert.is((await post('/_test/stall', { ms: 1500 })).status, 200);
  errorOf(await post('/actions/preset.neon_glow'), 503, 'CHAIN_BUSY');
  // Once the worker is back (reads answer again) and has handled what was queued behind the stall (a sample is
  // answered after it), the dropped add must not show.
  await waitUntil(async () => (await req('GET', api('/effects'))).status === 200, 15000);
  assert.is((await post('/_test/sample', { points: [[0.5, 0.5]] })).status, 200);
  assert.is((await get('/effects')).count, 0);
});

test('global, palette and source actions', async () => {
  let r = await post('/actions/global.blackout-on');
  assert.equal(r.json().result, { blackout: true, dimmer: 1 });
  r = await post('/actions/global.blackout-toggle');
  assert.is(r.json().result.blackout, false);
  r = await post('/actions/global.dimmer-down');
  assert.is(r.json().result.dimmer, 0.9);
  r = await post('/actions/global.dimmer-zero');
  assert.is(r.json().result.dimmer, 0);
  r = await post('/actions/global.dimmer-up');
  assert.is(r.json().result.dimmer, 0.1);
  r = await post('/actions/global.dimmer-full');
  assert.is(r.json().result.dimmer, 1);
  assert.equal(await get('/global'), { blackout: false, dimmer: 1 });
  r = await post('/actions/palette.all-blue');
  assert.is(r.json().result.id, 'all-blue');
  r = await post('/actions/palette.next');
  assert.is(r.status, 200);
  assert.is((await get('/palettes/current')).id, r.json().result.id);
  r = await post('/actions/source.source:plasma');
  assert.is(r.status, 200, r.text);
  assert.is((await get('/sources/current')).id, 'source:plasma');
  const nf = errorOf(await post('/actions/nope'), 404, 'ITEM_NOT_FOUND');
  assert.is(nf.details.kind, 'action');
  errorOf(await post(`/actions/${'x'.repeat(600)}`), 404, 'ITEM_NOT_FOUND');
});

test('current palette persists across restarts; a deleted file leaves none (404) until one is selected', async () => {
  assert.is((await post('/palettes/select', { id: 'all-red' })).status, 200);
  await new Promise((r) => setTimeout(r, 300));
  await s.stop();
  s = await startServer({ dataDir, config: config(), port: s.port });
  assert.is((await get('/palettes/current')).id, 'all-red');
  await rm(join(paletteDir, 'all-red.json'));
  await waitUntil(async () => (await req('GET', api('/palettes/current'))).status === 404, 10000);
  errorOf(await req('GET', api('/palettes/current')), 404, 'NO_CURRENT_PALETTE');
  const list = await get('/palettes');
  assert.is(list.currentId, null);
  assert.not.ok(list.items.some((p: any) => p.current));
  const r = await post('/palettes/next');
  assert.is(r.json().current.index, 0);
  assert.is((await get('/palettes/current')).index, 0);
});

test.run();
