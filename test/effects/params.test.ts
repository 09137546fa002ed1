// Effect and generator parameters over real HTTP, judged by output pixels: values, clamping, deltas, colors, reset,
// chain moves, saved presets as actions, CHAIN_BUSY, persistence across a restart, and bad input on every new route.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, sampleOutput, tempDir, waitUntil, type Res, type TestServer } from '../helpers/server.js';

let s: TestServer;
let dataDir: string;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = (p: string) => req('GET', api(p));
const post = (p: string, body?: unknown) => req('POST', api(p), body === undefined ? {} : { body });

function assertError(r: { status: number; json(): any }, status: number, code: string): any {
  assert.is(r.status, status, `expected ${status} ${code}`);
  const b = r.json();
  assert.is(b.code, code);
  return b;
}

const pixel = async (): Promise<number[]> => (await sampleOutput(s.base))[0]!;

/** Waits until the output's center pixel satisfies `ok` (frames are drawn asynchronously). */
async function outputBecomes(what: string, ok: (p: number[]) => boolean): Promise<number[]> {
  let last: number[] = [];
  try {
    await waitUntil(async () => ok((last = await pixel())), 20000, 100);
  } catch {
    assert.unreachable(`output never became ${what}; last pixel ${last.join(',')}`);
  }
  return last;
}
const near = (a: number, b: number, tol = 12): boolean => Math.abs(a - b) <= tol;
const isRgb = (r: number, g: number, b: number) => (p: number[]) => near(p[0]!, r) && near(p[1]!, g) && near(p[2]!, b);

async function clearChain(): Promise<void> {
  for (;;) {
    const c = (await get('/effects')).json();
    if (c.count === 0) return;
    assert.is((await post('/effects/remove', { index: 1 })).status, 200);
  }
}

const inputValue = (item: any, name: string): unknown => item.inputs.find((i: any) => i.name === name)?.value;

test.before(async () => {
  dataDir = await tempDir();
  const effectsDir = join(dataDir, 'fx');
  await mkdir(effectsDir);
  await writeFile(
    join(effectsDir, 'spectrum_glow.fs'),
    `/*{ "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" }, { "NAME": "spectrum", "TYPE": "audioFFT", "LABEL": "Spectrum" }, { "NAME": "gain", "TYPE": "float", "MIN": 0, "MAX": 2, "DEFAULT": 1 } ] }*/
void main() { gl_FragColor = IMG_THIS_PIXEL(inputImage) + gain * IMG_NORM_PIXEL(spectrum, vec2(0.5)); }`,
  );
  // Counters of fired frames: every frame an event is set adds 10 to red in a persistent buffer, so the output tells
  // how many frames an event lasted.
  const counter = (
    image: boolean,
  ) => `/*{ "INPUTS": [ ${image ? '{ "NAME": "inputImage", "TYPE": "image" }, ' : ''}{ "NAME": "fire", "TYPE": "event" } ],
  "PASSES": [ { "TARGET": "acc", "PERSISTENT": true } ] }*/
void main() { gl_FragColor = vec4(IMG_THIS_PIXEL(acc).r + (fire ? 0.04 : 0.0), 0.0, 0.0, 1.0); }`;
  await writeFile(join(effectsDir, 'fire_counter.fs'), counter(true));
  const sourcesDir = join(dataDir, 'gens');
  await mkdir(sourcesDir);
  await writeFile(join(sourcesDir, 'fire_source.fs'), counter(false));
  s = await startServer({ dataDir, config: { effects: { dirs: [effectsDir] }, sources: { dirs: [sourcesDir] } } });
});
test.after(async () => {
  await s.cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

test('catalog items describe their inputs; capabilities name the new features', async () => {
  const features = (await get('/capabilities')).json().features;
  for (const f of ['effect-params', 'effect-presets-save', 'generator-params']) assert.ok(features.includes(f), f);
  const cat = (await get('/effects/available')).json();
  const bc = cat.items.find((i: any) => i.type === 'brightness_contrast');
  assert.equal(bc.inputs, [
    { name: 'inputImage', label: 'inputImage', type: 'image' },
    { name: 'brightness', label: 'Brightness', type: 'float', default: 0, min: -1, max: 1 },
    { name: 'contrast', label: 'Contrast', type: 'float', default: 1.2, min: 0, max: 3 },
  ]);
  const edge = cat.items.find((i: any) => i.type === 'edge_detect').inputs.find((i: any) => i.name === 'mode');
  assert.equal([edge.type, edge.values, edge.labels], ['long', [0, 1, 2], ['Neon', 'White on Black', 'Sketch']]);
  // An audio input is listed, not settable (no audio source yet: it reads black).
  const glow = cat.items.find((i: any) => i.type === 'spectrum_glow');
  assert.equal(glow.inputs[1], { name: 'spectrum', label: 'Spectrum', type: 'audioFFT' });
  assert.is((await post('/effects/add', { type: 'spectrum_glow' })).status, 200);
  const refused = assertError(await post('/effects/params', { name: 'spectrum glow', values: { spectrum: [1] } }), 400, 'INVALID_REQUEST');
  assert.equal(refused.details.input, 'spectrum');
  assert.is((await post('/effects/params', { name: 'spectrum glow', values: { gain: 0.5 } })).status, 200);
  await clearChain();
});

test('generator params: 409 without a generator on program; set a color and the output shows it', async () => {
  assertError(await get('/sources/current/params'), 409, 'NOT_A_GENERATOR');
  assertError(await post('/sources/params', { values: { color: '#FF0000' } }), 409, 'NOT_A_GENERATOR');
  assert.is((await post('/sources/select', { id: 'source:solid_color' })).status, 200);
  const params = (await get('/sources/current/params')).json();
  assert.is(params.id, 'source:solid_color');
  assert.equal(params.inputs.find((i: any) => i.name === 'color').value, [0, 0.6, 1, 1]);
  const r = await post('/sources/params', { values: { color: '#FF0000' } });
  assert.is(r.status, 200);
  assert.equal(inputValue(r.json(), 'color'), [1, 0, 0, 1]);
  await outputBecomes('red', isRgb(255, 0, 0));
  // Bad values: nothing applied, details name the input.
  const bad = assertError(await post('/sources/params', { values: { color: '#00FF00', pulse: 'lots' } }), 400, 'INVALID_REQUEST');
  assert.equal(bad.details, { input: 'pulse', expected: 'a finite number (clamped to 0..1) or {"delta": n}' });
  assert.equal(
    bad.details && assertError(await post('/sources/params', { values: { nope: 1 } }), 400, 'INVALID_REQUEST').details.available,
    ['color', 'pulse', 'pulseRate'],
  );
  assertError(await post('/sources/params', {}), 400, 'INVALID_REQUEST');
  assertError(await post('/sources/params', { values: 'red' }), 400, 'INVALID_REQUEST');
  assertError(await req('POST', api('/sources/params'), { body: '{"values": {"pulse": NaN}}' }), 400, 'INVALID_REQUEST');
  assert.equal((await get('/sources/current/params')).json().inputs.find((i: any) => i.name === 'color').value, [1, 0, 0, 1]);
  // A mid gray for the effect tests below.
  assert.is((await post('/sources/params', { values: { color: '#808080' } })).status, 200);
  await outputBecomes('gray', isRgb(128, 128, 128));
});

test('brightness at its minimum darkens; a value past MAX reads back clamped; deltas accumulate; reset restores', async () => {
  await clearChain();
  assert.is((await post('/effects/add', { type: 'brightness_contrast' })).status, 200);
  await outputBecomes('the gray source through default contrast', isRgb(128, 128, 128));
  const dark = await post('/effects/params', { index: 1, values: { brightness: -5 } });
  assert.is(dark.status, 200);
  assert.is(inputValue(dark.json().current, 'brightness'), -1, 'clamped to MIN');
  assert.is(inputValue(dark.json().current, 'contrast'), 1.2, 'inputs not named keep their value');
  await outputBecomes('dark', (p) => p[0]! < 10 && p[1]! < 10 && p[2]! < 10);
  const got = (await get('/effects/1')).json();
  assert.is(got.type, 'brightness_contrast');
  assert.is(inputValue(got, 'brightness'), -1);

  assert.is((await post('/effects/params', { name: 'Brightness Contrast', values: { brightness: 0 } })).status, 200);
  let last: any;
  for (let i = 0; i < 3; i++) last = (await post('/effects/params', { index: 1, values: { brightness: { delta: 0.1 } } })).json();
  assert.ok(
    near(inputValue(last.current, 'brightness') as number, 0.3, 1e-9),
    `three deltas of 0.1 from 0: ${inputValue(last.current, 'brightness')}`,
  );
  await outputBecomes('brighter (0.5 + 0.3)', isRgb(205, 205, 205));
  const up = (await post('/effects/params', { index: 1, values: { brightness: { delta: 5 } } })).json();
  assert.is(inputValue(up.current, 'brightness'), 1, 'a delta clamps too');

  const reset = await post('/effects/reset', { index: 1 });
  assert.is(reset.status, 200);
  assert.is(inputValue(reset.json().current, 'brightness'), 0);
  await outputBecomes('the default output again', isRgb(128, 128, 128));
  await post('/effects/params', { index: 1, values: { brightness: 0.2, contrast: 0 } });
  const one = (await post('/effects/reset', { index: 1, inputs: ['contrast'] })).json();
  assert.equal([inputValue(one.current, 'brightness'), inputValue(one.current, 'contrast')], [0.2, 1.2]);
});

test('a color input tints the output', async () => {
  await clearChain();
  await post('/effects/add', { type: 'color_tint' });
  const r = await post('/effects/params', { index: 1, values: { tint: [1, 0, 0, 1], amount: 1, mode: 'Colorize' } });
  assert.is(r.status, 200);
  assert.equal(inputValue(r.json().current, 'tint'), [1, 0, 0, 1]);
  assert.is(inputValue(r.json().current, 'mode'), 0);
  await outputBecomes('tinted red', (p) => p[0]! > 100 && p[1]! < 15 && p[2]! < 15);
  assert.is((await post('/effects/params', { index: 1, values: { tint: '#0000FF' } })).status, 200);
  await outputBecomes('tinted blue', (p) => p[2]! > 100 && p[0]! < 15 && p[1]! < 15);
});

test("move: invert then threshold differs from threshold then invert, and a move gives the other order's output", async () => {
  await clearChain();
  // A dark source (luma 0.3) and a red dark color make the two orders differ: threshold→invert is cyan, invert→threshold white.
  await post('/sources/params', { values: { color: '#4D4D4D' } });
  await post('/effects/add', { type: 'threshold' });
  await post('/effects/add', { type: 'invert' });
  assert.is((await post('/effects/params', { name: 'threshold', values: { darkColor: '#FF0000' } })).status, 200);
  const thresholdFirst = await outputBecomes('cyan', isRgb(0, 255, 255));

  const moved = await post('/effects/move', { name: 'invert', to: 1 });
  assert.is(moved.status, 200);
  assert.equal(
    moved.json().items.map((i: any) => `${i.index}:${i.type}`),
    ['1:invert', '2:threshold'],
  );
  const invertFirst = await outputBecomes('white', isRgb(255, 255, 255));
  assert.not.equal(invertFirst.slice(0, 3), thresholdFirst.slice(0, 3));
  // Values travel with the effect: the threshold (now at 2) kept its dark color.
  assert.equal(inputValue((await get('/effects/2')).json(), 'darkColor'), [1, 0, 0, 1]);

  // The same order built by adds gives the same output as the move.
  await clearChain();
  await post('/effects/add', { type: 'invert' });
  await post('/effects/add', { type: 'threshold' });
  await post('/effects/params', { index: 2, values: { darkColor: '#FF0000' } });
  const built = await outputBecomes('white', isRgb(255, 255, 255));
  assert.equal(built.slice(0, 3), invertFirst.slice(0, 3));
  assert.is((await post('/effects/move', { index: 2, to: 1 })).status, 200);
  await outputBecomes('cyan again', isRgb(0, 255, 255));
});

/** Red of the output stays at `red` over several samples (an event that kept firing would keep adding 10 a frame). */
async function holds(red: number): Promise<void> {
  await outputBecomes(`red ${red}`, (p) => near(p[0]!, red, 3));
  for (let i = 0; i < 5; i++) {
    const p = await pixel();
    assert.ok(near(p[0]!, red, 3), `red stays ${red}: got ${p[0]}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('an event fires for exactly one frame, on an effect and on the program generator', async () => {
  await clearChain();
  await post('/effects/add', { type: 'fire_counter' });
  await holds(0);
  const r = await post('/effects/params', { index: 1, values: { fire: true } });
  assert.is(inputValue(r.json().current, 'fire'), true, 'the answer shows the event set');
  await holds(10);
  assert.is(inputValue((await get('/effects/1')).json(), 'fire'), false, 'it is not kept');
  await post('/effects/params', { index: 1, values: { fire: true } });
  await holds(20);
  await clearChain();

  assert.is((await post('/sources/select', { id: 'source:fire_source' })).status, 200);
  await holds(0);
  assert.is((await post('/sources/params', { values: { fire: true } })).status, 200);
  await holds(10);
  assert.is((await get('/sources/current/params')).json().inputs[0].value, false);
  await post('/sources/params', { values: { fire: true } });
  await holds(20);
  assert.is((await post('/sources/select', { id: 'source:solid_color' })).status, 200);
  await post('/sources/params', { values: { color: '#4D4D4D' } });
});

test('bad input on every new effects route; nothing applied', async () => {
  await clearChain();
  await post('/effects/add', { type: 'brightness_contrast' });
  await post('/effects/params', { index: 1, values: { brightness: 0.1 } });
  // GET /effects/{index}
  assert.equal(assertError(await get('/effects/0'), 404, 'ITEM_NOT_FOUND').details, { requested: 0, min: 1, max: 1 });
  assert.equal(assertError(await get('/effects/2'), 404, 'ITEM_NOT_FOUND').details, { requested: 2, min: 1, max: 1 });
  // A position is digits only: anything else is no route at all.
  assertError(await get('/effects/abc'), 404, 'NOT_FOUND');
  assertError(await get('/effects/1.5'), 404, 'NOT_FOUND');
  assertError(await get('/effects/-1'), 404, 'NOT_FOUND');
  assertError(await get('/effects/9999999999'), 400, 'INVALID_REQUEST');
  // POST /effects/params
  const params: Array<[unknown, number]> = [
    ['not json', 400],
    ['{"index": 1, "values": {"brightness": NaN}}', 400],
    [{}, 400],
    [{ index: 1 }, 400],
    [{ values: { brightness: 0.5 } }, 400],
    [{ index: '1', values: { brightness: 0.5 } }, 400],
    [{ index: 1, values: 'bright' }, 400],
    [{ index: 1, values: { brightness: 'NaN' } }, 400],
    [{ index: 1, values: { brightness: null } }, 400],
    [{ index: 1, values: { brightness: [0.5] } }, 400],
    [{ index: 1, values: { brightness: { delta: '1' } } }, 400],
    [{ index: 1, values: { brightness: 0.5, contrast: true } }, 400],
    [{ index: 1, values: { brightness: 0.5, glow: 1 } }, 400],
    [{ index: 1, values: { inputImage: 1 } }, 400],
    [{ index: 0, values: { brightness: 0.5 } }, 404],
    [{ name: 'nope', values: { brightness: 0.5 } }, 404],
  ];
  for (const [body, status] of params) {
    const r = typeof body === 'string' ? await req('POST', api('/effects/params'), { body }) : await post('/effects/params', body);
    assert.is(r.status, status, `params ${JSON.stringify(body)}: ${r.text}`);
  }
  const unknown = (await post('/effects/params', { index: 1, values: { glow: 1 } })).json();
  assert.equal(unknown.details, { input: 'glow', available: ['brightness', 'contrast'] });
  const wrong = (await post('/effects/params', { index: 1, values: { contrast: true } })).json();
  assert.equal(wrong.details.input, 'contrast');
  assert.type(wrong.details.expected, 'string');
  assert.equal(inputValue((await get('/effects/1')).json(), 'brightness'), 0.1, 'a refused request applied none of its values');
  // POST /effects/reset
  for (const [body, status] of [
    [{}, 400],
    [{ index: 1, inputs: 'brightness' }, 400],
    [{ index: 1, inputs: [5] }, 400],
    [{ index: 1, inputs: ['glow'] }, 400],
    [{ index: 0 }, 404],
  ] as Array<[unknown, number]>) {
    assert.is((await post('/effects/reset', body)).status, status, `reset ${JSON.stringify(body)}`);
  }
  assertError(await req('POST', api('/effects/reset'), { body: '{index:1}' }), 400, 'INVALID_REQUEST');
  // POST /effects/move
  for (const [body, status] of [
    [{ index: 1 }, 400],
    [{ to: 1 }, 400],
    [{ index: 1, to: '1' }, 400],
    [{ index: 1, to: 1.5 }, 400],
    [{ index: 0, to: 1 }, 404],
  ] as Array<[unknown, number]>) {
    assert.is((await post('/effects/move', body)).status, status, `move ${JSON.stringify(body)}`);
  }
  assert.equal(assertError(await post('/effects/move', { index: 1, to: 2 }), 404, 'ITEM_NOT_FOUND').details, {
    requested: 2,
    min: 1,
    max: 1,
  });
  assert.equal(assertError(await post('/effects/move', { index: 1, to: 0 }), 404, 'ITEM_NOT_FOUND').details, {
    requested: 0,
    min: 1,
    max: 1,
  });
  assertError(await req('POST', api('/effects/move'), { body: 'move it' }), 400, 'INVALID_REQUEST');
  // POST /presets/save
  for (const [body, status] of [
    [{}, 400],
    [{ index: 1 }, 400],
    [{ name: 'Look' }, 400],
    [{ index: 1, name: 5 }, 400],
    [{ index: 1, name: '!!!' }, 400],
    [{ index: 1, name: 'Look', overwrite: 'yes' }, 400],
    [{ index: 0, name: 'Look' }, 404],
    [{ effect: 'nope', name: 'Look' }, 404],
  ] as Array<[unknown, number]>) {
    assert.is((await post('/presets/save', body)).status, status, `save ${JSON.stringify(body)}`);
  }
  assertError(await req('POST', api('/presets/save'), { body: 'save' }), 400, 'INVALID_REQUEST');
});

test('params: a deeply nested value is a 400 naming the input, not a 500 (it never reaches the worker)', async () => {
  await clearChain();
  await post('/effects/add', { type: 'brightness_contrast' });
  await post('/effects/params', { index: 1, values: { brightness: 0.25 } });
  // Fits the 64 KiB body limit, parses fine, but is too deep to be copied to the render worker.
  const deep = `${'['.repeat(30000)}${']'.repeat(30000)}`;
  for (const value of [deep, `{"delta": ${deep}}`]) {
    const r = await req('POST', api('/effects/params'), { body: `{"index": 1, "values": {"brightness": ${value}}}` });
    const b = assertError(r, 400, 'INVALID_REQUEST');
    assert.is(b.details.input, 'brightness');
    assert.type(b.details.expected, 'string');
  }
  assert.is(inputValue((await get('/effects/1')).json(), 'brightness'), 0.25);
});

test('CHAIN_BUSY: a stalled renderer answers 503 on params and move, and neither is applied', async () => {
  await clearChain();
  await post('/effects/add', { type: 'brightness_contrast' });
  await post('/effects/add', { type: 'invert' });
  assert.is((await post('/_test/stall', { ms: 3000 })).status, 200);
  const [p, m] = await Promise.all([
    post('/effects/params', { index: 1, values: { brightness: -1 } }),
    post('/effects/move', { index: 1, to: 2 }),
  ]);
  assertError(p, 503, 'CHAIN_BUSY');
  assertError(m, 503, 'CHAIN_BUSY');
  // Back from a stall the worker may stay busy a moment longer (a read waits 1 s for it): the chain is read once the
  // worker answers a sample and both reads in a row.
  let list: Res | null = null;
  let first: Res | null = null;
  await waitUntil(async () => {
    if ((await post('/_test/sample', { points: [[0.5, 0.5]] })).status !== 200) return false;
    [list, first] = [await get('/effects'), await get('/effects/1')];
    return list.status === 200 && first.status === 200;
  }, 30000);
  assert.equal(
    list!.json().items.map((i: any) => i.type),
    ['brightness_contrast', 'invert'],
  );
  assert.is(inputValue(first!.json(), 'brightness'), 0);
});

test('presets/save: the look is an action at once, runs as an add with its values and presetId; a taken name is 409', async () => {
  await clearChain();
  await post('/effects/add', { type: 'brightness_contrast' });
  await post('/effects/params', { index: 1, values: { brightness: -1, contrast: 2 } });
  const saved = await post('/presets/save', { index: 1, name: 'Night Look' });
  assert.is(saved.status, 200, saved.text);
  assert.equal(saved.json().preset, {
    id: 'night_look',
    name: 'Night Look',
    effect: 'brightness_contrast',
    inputs: { brightness: -1, contrast: 2 },
  });
  const actions = (await get('/actions')).json().items;
  assert.ok(actions.some((a: any) => a.id === 'preset.night_look' && a.category === 'Effect Presets' && a.name === 'Night Look'));
  assertError(await post('/presets/save', { effect: 'brightness contrast', name: 'night-look' }), 409, 'PRESET_EXISTS');
  await post('/effects/params', { index: 1, values: { contrast: 1 } });
  const again = await post('/presets/save', { effect: 'Brightness Contrast', name: 'Night Look', overwrite: true });
  assert.is(again.status, 200);
  assert.equal(again.json().preset.inputs, { brightness: -1, contrast: 1 });

  await clearChain();
  const ran = await post('/actions/preset.night_look');
  assert.is(ran.status, 200, ran.text);
  assert.is(ran.json().result.presetId, 'night_look');
  const item = (await get('/effects/1')).json();
  assert.equal([item.presetId, inputValue(item, 'brightness'), inputValue(item, 'contrast')], ['night_look', -1, 1]);
  await outputBecomes('dark', (p) => p[0]! < 10 && p[1]! < 10 && p[2]! < 10);
});

test('presets/save: the id comes from the whole name (dots and slashes too), so two looks never share a file', async () => {
  await clearChain();
  await post('/effects/add', { type: 'brightness_contrast' });
  await post('/effects/params', { index: 1, values: { brightness: -0.5 } });
  const a = await post('/presets/save', { index: 1, name: 'Glow v1.5' });
  assert.is(a.status, 200, a.text);
  assert.is(a.json().preset.id, 'glow_v1_5');
  await post('/effects/params', { index: 1, values: { brightness: 0.5 } });
  // Before: the text after the last dot was dropped as if it were an extension, so this was a 409 for "Glow v1.5",
  // and overwrite: true would have replaced that other look.
  const b = await post('/presets/save', { index: 1, name: 'Glow v1.6' });
  assert.is(b.status, 200, b.text);
  assert.is(b.json().preset.id, 'glow_v1_6');
  const c = await post('/presets/save', { index: 1, name: 'stage/left' });
  assert.is(c.status, 200, c.text);
  assert.is(c.json().preset.id, 'stage_left');
  const ids = (await get('/actions')).json().items.map((x: any) => x.id);
  for (const id of ['preset.glow_v1_5', 'preset.glow_v1_6', 'preset.stage_left']) assert.ok(ids.includes(id), `${id} is an action`);
  const ran = await post('/actions/preset.glow_v1_5');
  assert.is(ran.status, 200, ran.text);
  assert.is(inputValue((await get(`/effects/${ran.json().result.index}`)).json(), 'brightness'), -0.5);
});

test('presets/save: two saves of one name at once are one 200 and one 409, never a silent overwrite', async () => {
  await clearChain();
  await post('/effects/add', { type: 'brightness_contrast' });
  for (let round = 0; round < 3; round++) {
    const [a, b] = await Promise.all([
      post('/presets/save', { index: 1, name: `Race Look ${round}` }),
      post('/presets/save', { index: 1, name: `race-look-${round}` }),
    ]);
    assert.equal([a.status, b.status].sort(), [200, 409], `round ${round}: ${a.text} / ${b.text}`);
  }
});

test('values and saved presets survive a restart', async () => {
  await clearChain();
  await post('/effects/add', { type: 'invert' });
  await post('/effects/add', { type: 'brightness_contrast' });
  await post('/effects/params', { index: 2, values: { brightness: -1, contrast: 0 } });
  await post('/effects/params', { index: 1, values: { amount: 0.25 } });
  await post('/effects/move', { index: 2, to: 1 });
  await s.stop();
  s = await startServer({ dataDir });
  const chain = (await get('/effects')).json().items.map((i: any) => i.type);
  assert.equal(chain, ['brightness_contrast', 'invert']);
  assert.is(inputValue((await get('/effects/1')).json(), 'brightness'), -1);
  assert.is(inputValue((await get('/effects/2')).json(), 'amount'), 0.25);
  // contrast 0 and brightness -1 give black whatever the source, then a quarter invert: 0.25 gray.
  await outputBecomes('a quarter gray', isRgb(64, 64, 64));
  const actions = (await get('/actions')).json().items;
  assert.ok(
    actions.some((a: any) => a.id === 'preset.night_look'),
    'the saved preset is an action after the restart',
  );
});

test.run();
