// The A/B mixer over real HTTP with pixels read back from the output: cue, take (fade blends, cut switches on the
// next frame), the T-bar, selects with a transition, the effects chain over the mix, transitions from a watched
// folder, actions, every route's bad input, a cue timeout, and the mix state across a restart.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, tempDir, freePort, waitUntil, sampleOutput, type TestServer } from '../helpers/server.js';

let s: TestServer;
let dataDir: string;
let config: Record<string, unknown>;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = async (p: string) => (await req('GET', api(p))).json();
const post = (p: string, body?: unknown) => req('POST', api(p), { body: body ?? {}, timeoutMs: 20000 });
type Px = number[];

const center = async (): Promise<Px> => (await sampleOutput(s.base))[0]!;
const isRed = (p: Px): boolean => p[0]! > 200 && p[1]! < 60 && p[2]! < 60;
const isBlue = (p: Px): boolean => p[2]! > 200 && p[0]! < 60 && p[1]! < 60;
/** Both sources visibly present: neither channel near its end value (a blend of red and blue). */
const isBlend = (p: Px): boolean => p[0]! > 50 && p[0]! < 205 && p[2]! > 50 && p[2]! < 205;

function errorOf(r: { status: number; text: string; json(): any }, status: number, code: string): any {
  assert.is(r.status, status, r.text);
  const b = r.json();
  assert.is(b.error, true);
  assert.is(b.code, code);
  return b;
}

const SOLID = (name: string, rgb: number[]) => JSON.stringify({ name, source: 'solid_color', inputs: { color: [...rgb, 1] } });

test.before(async () => {
  dataDir = await tempDir();
  const presets = join(dataDir, 'presets');
  await mkdir(presets, { recursive: true });
  await writeFile(join(presets, 'red.json'), SOLID('Red', [1, 0, 0]));
  await writeFile(join(presets, 'blue.json'), SOLID('Blue', [0, 0, 1]));
  await writeFile(join(presets, 'green.json'), SOLID('Green', [0, 1, 0]));
  await mkdir(join(dataDir, 'transitions'), { recursive: true });
  config = {
    presets: { dirs: [presets] },
    transitions: { dirs: [join(dataDir, 'transitions')] },
    live: {
      test: [{ id: 'yellow', name: 'Yellow Test', pattern: 'color=c=yellow:size=320x240:rate=30' }],
      streams: [{ id: 'silent', name: 'Silent Cam', url: `tcp://127.0.0.1:${await freePort()}?listen` }],
      v4l2: { enabled: false },
    },
  };
  s = await startServer({ dataDir, config });
});
test.after(async () => {
  await s.cleanup();
});

test('GET /transitions lists the built-ins; GET /mix starts empty', async () => {
  const t = await get('/transitions');
  const types = t.items.map((i: any) => i.type);
  for (const b of ['cut', 'fade', 'dip', 'wipe']) assert.ok(types.includes(b), `missing ${b}: ${types}`);
  assert.is(t.count, t.items.length);
  const m = await get('/mix');
  assert.is(m.preview, null);
  assert.is(m.position, 0);
  assert.is(m.inTransition, false);
  assert.equal(m.transition, { type: 'cut', durationMs: 0 });
});

test('take and position with nothing cued: 409 NOTHING_CUED', async () => {
  errorOf(await post('/mix/take', {}), 409, 'NOTHING_CUED');
  errorOf(await post('/mix/take', { transition: 'fade', durationMs: 500 }), 409, 'NOTHING_CUED');
  errorOf(await post('/mix/position', { value: 0.5 }), 409, 'NOTHING_CUED');
  errorOf(await post('/actions/mix.take'), 409, 'NOTHING_CUED');
});

test('cue loads preview without touching the program', async () => {
  assert.is((await post('/sources/select', { id: 'preset:blue' })).status, 200);
  await waitUntil(async () => isBlue(await center()), 10000);
  const r = await post('/mix/cue', { name: 'red' });
  assert.is(r.status, 200, r.text);
  const b = r.json();
  assert.is(b.success, true);
  assert.is(b.mix.preview.id, 'preset:red');
  assert.is(b.mix.program.id, 'preset:blue');
  assert.ok(isBlue(await center()), 'the output still shows the program');
  assert.is((await get('/sources/current')).id, 'preset:blue');
});

test('take with fade over 2000 ms: a blend in the middle, red at the end, buses swapped', async () => {
  const r = await post('/mix/take', { transition: 'fade', durationMs: 2000 });
  assert.is(r.status, 200, r.text);
  assert.equal(r.json().mix.transition, { type: 'fade', durationMs: 2000 });
  assert.is(r.json().mix.inTransition, true);
  let blended: Px | null = null;
  const seen: Px[] = [];
  await waitUntil(
    async () => {
      const p = await center();
      seen.push(p);
      if (isBlend(p)) blended = p;
      return blended !== null || isRed(p);
    },
    15000,
    20,
  );
  assert.ok(blended, `no blended sample during the fade: ${JSON.stringify(seen)}`);
  await waitUntil(async () => isRed(await center()), 15000);
  await waitUntil(async () => (await get('/mix')).program.id === 'preset:red', 5000);
  const m = await get('/mix');
  assert.is(m.preview.id, 'preset:blue', 'the old program waits on preview');
  assert.is(m.inTransition, false);
  assert.is(m.position, 0);
  assert.is((await get('/sources/current')).id, 'preset:red');
});

test('position 0.5 holds a blend; reaching 1 completes the take', async () => {
  const r = await post('/mix/position', { value: 0.5, transition: 'fade' });
  assert.is(r.status, 200, r.text);
  assert.is(r.json().mix.position, 0.5);
  assert.is(r.json().mix.inTransition, true);
  const first = await center();
  assert.ok(isBlend(first), `not a blend at 0.5: ${first}`);
  // Held: still a blend several samples later, and GET /mix still reports the position.
  for (let i = 0; i < 5; i++) assert.ok(isBlend(await center()));
  assert.is((await get('/mix')).position, 0.5);
  const back = await post('/mix/position', { value: 0 });
  assert.is(back.status, 200);
  assert.ok(isRed(await center()), 'position 0 shows the program');
  const done = await post('/mix/position', { value: 1 });
  assert.is(done.status, 200, done.text);
  assert.ok(isBlue(await center()), 'position 1 shows the preview, now the program');
  const m = await get('/mix');
  assert.is(m.program.id, 'preset:blue');
  assert.is(m.preview.id, 'preset:red');
  assert.is(m.position, 0);
});

test('cut switches on the next frame: the first sample after the answer shows the new source', async () => {
  const r = await post('/mix/take', { transition: 'cut' });
  assert.is(r.status, 200, r.text);
  assert.ok(isRed(await center()));
  assert.is(r.json().mix.program.id, 'preset:red');
  assert.is(r.json().mix.preview.id, 'preset:blue');
  // The action does the same with the mixer's transition (now cut).
  const a = await post('/actions/mix.take');
  assert.is(a.status, 200, a.text);
  assert.is(a.json().result.program.id, 'preset:blue');
  assert.ok(isBlue(await center()));
});

test('the effects chain applies to the mixed program', async () => {
  const add = await post('/effects/add', { type: 'invert' });
  assert.is(add.status, 200, add.text);
  try {
    await waitUntil(async () => {
      const p = await center();
      return p[0]! > 200 && p[1]! > 200 && p[2]! < 60; // inverted blue
    }, 10000);
    assert.is((await post('/mix/position', { value: 0.5, transition: 'fade' })).status, 200);
    const p = await center();
    // inverted blend of blue and red: green at full, red and blue both in between
    assert.ok(p[1]! > 200 && isBlend(p), `not an inverted blend: ${p}`);
    assert.is((await post('/mix/position', { value: 0 })).status, 200);
  } finally {
    await post('/effects/remove', { type: 'invert' });
  }
});

test('a select with a transition blends and answers with the new source', async () => {
  // program blue, preview red: select green with a fade
  const r = await post('/sources/select', { id: 'preset:green', transition: 'fade', durationMs: 1500 });
  assert.is(r.status, 200, r.text);
  assert.is(r.json().current.id, 'preset:green');
  let mixed = false;
  await waitUntil(
    async () => {
      const p = await center();
      if (p[1]! > 40 && p[1]! < 215 && p[2]! > 40) mixed = true;
      return mixed || p[1]! > 200;
    },
    15000,
    20,
  );
  assert.ok(mixed, 'no blend of blue and green seen');
  await waitUntil(async () => (await get('/sources/current')).id === 'preset:green', 10000);
  assert.is((await get('/mix')).preview.id, 'preset:blue');
  // Without a transition the select is still a plain cut that leaves the preview alone.
  assert.is((await post('/sources/select', { id: 'preset:red' })).status, 200);
  assert.ok(isRed(await center()));
  assert.is((await get('/mix')).preview.id, 'preset:blue');
});

test('a select during a running transition wins: the transition ends and the selected source stays on program', async () => {
  const cur = async () => (await get('/sources/current')).id;
  const settled = () => waitUntil(async () => (await get('/mix')).inTransition === false, 20000, 50);
  for (const plain of [false, true]) {
    assert.is((await post('/sources/select', { name: 'Red' })).status, 200);
    await settled();
    assert.is((await post('/sources/select', { name: 'Blue', transition: 'fade', durationMs: 3000 })).status, 200);
    // Back to the program of the running fade (a cut, or a plain select): before, this answered 200 at once and
    // the fade then went on to blue, so the output ended on a source nobody had selected last.
    const back = await post('/sources/select', plain ? { name: 'Red' } : { name: 'Red', transition: 'cut' });
    assert.is(back.status, 200, back.text);
    assert.is(back.json().current.id, 'preset:red');
    await settled();
    assert.is(await cur(), 'preset:red', plain ? 'plain select' : 'select with a cut');
    await waitUntil(async () => isRed(await center()), 20000, 50);
  }
  // A different source selected during a take: it is the program when the dust settles.
  await post('/mix/cue', { name: 'Green' });
  assert.is((await post('/mix/take', { transition: 'fade', durationMs: 3000 })).status, 200);
  assert.is((await post('/sources/select', { name: 'Blue' })).status, 200);
  await settled();
  assert.is(await cur(), 'preset:blue');
  await waitUntil(async () => isBlue(await center()), 20000, 50);
  // Leave the buses as the tests after this one expect them: program red, preview blue.
  assert.is((await post('/sources/select', { name: 'Red' })).status, 200);
  assert.is((await post('/mix/cue', { name: 'Blue' })).status, 200);
});

test('bad input on every mixer route', async () => {
  const raw = (p: string, text: string) => req('POST', api(p), { body: text, headers: { 'content-type': 'application/json' } });
  for (const p of ['/mix/cue', '/mix/take', '/mix/position', '/sources/select']) errorOf(await raw(p, '{nope'), 400, 'INVALID_REQUEST');
  errorOf(await raw('/mix/position', '{"value": NaN}'), 400, 'INVALID_REQUEST');
  errorOf(await post('/mix/cue', {}), 400, 'INVALID_REQUEST');
  errorOf(await post('/mix/cue', { id: 5 }), 400, 'INVALID_REQUEST');
  errorOf(await post('/mix/cue', { name: '   ' }), 400, 'INVALID_REQUEST');
  const nf = errorOf(await post('/mix/cue', { id: 'no-such-source' }), 404, 'ITEM_NOT_FOUND');
  assert.ok(nf.details.available.includes('preset:red'));
  for (const body of [
    { durationMs: -1 },
    { durationMs: 10001 },
    { durationMs: 'x' },
    { durationMs: 1.5 },
    { transition: 5 },
    { transition: '' },
    { extra: 1 },
  ]) {
    errorOf(await post('/mix/take', body), 400, 'INVALID_REQUEST');
  }
  const tnf = errorOf(await post('/mix/take', { transition: 'no-such-transition' }), 404, 'ITEM_NOT_FOUND');
  assert.ok(tnf.details.available.includes('fade'));
  for (const body of [{}, { value: 2 }, { value: -0.1 }, { value: 'half' }, { value: null }, { value: 0.5, transition: 7 }]) {
    errorOf(await post('/mix/position', body), 400, 'INVALID_REQUEST');
  }
  errorOf(await post('/mix/position', { value: 0.5, transition: 'nope' }), 404, 'ITEM_NOT_FOUND');
  errorOf(await post('/sources/select', { id: 'preset:blue', durationMs: 20000 }), 400, 'INVALID_REQUEST');
  errorOf(await post('/sources/select', { id: 'preset:blue', transition: 'nope' }), 404, 'ITEM_NOT_FOUND');
  errorOf(await post('/inputs/live/select', { id: 'silent', durationMs: 'slow' }), 400, 'INVALID_REQUEST');
  errorOf(await post('/inputs/file/select', { id: 'x', transition: '' }), 400, 'INVALID_REQUEST');
  // Nothing of that changed the mixer.
  const m = await get('/mix');
  assert.is(m.program.id, 'preset:red');
  assert.is(m.preview.id, 'preset:blue');
});

test('a cue that gets no frame: 504 ACTIVATION_TIMEOUT, program and preview unchanged', async () => {
  const r = await post('/mix/cue', { id: 'silent' });
  const b = errorOf(r, 504, 'ACTIVATION_TIMEOUT');
  assert.is(b.details.requested, 'silent');
  assert.is(b.details.timeoutMs, 5000);
  const m = await get('/mix');
  assert.is(m.program.id, 'preset:red');
  assert.is(m.preview.id, 'preset:blue');
  assert.ok(isRed(await center()));
});

test('a transition file dropped into transitions.dirs appears; a file that is not a transition does not', async () => {
  const dir = join(dataDir, 'transitions');
  await writeFile(
    join(dir, 'to_end.fs'),
    `/*{ "NAME": "Straight To End", "INPUTS": [ { "NAME": "startImage", "TYPE": "image" }, { "NAME": "endImage", "TYPE": "image" }, { "NAME": "progress", "TYPE": "float", "DEFAULT": 0.0 } ] }*/
void main() { gl_FragColor = IMG_NORM_PIXEL(endImage, isf_FragNormCoord); }`,
  );
  await writeFile(join(dir, 'not_one.fs'), `/*{ "INPUTS": [] }*/\nvoid main() { gl_FragColor = vec4(1.0); }`);
  await waitUntil(async () => (await get('/transitions')).items.some((i: any) => i.type === 'to_end'), 15000);
  assert.not.ok((await get('/transitions')).items.some((i: any) => i.type === 'not_one'));
  assert.ok((await get('/actions')).items.some((a: any) => a.id === 'mix.take.to_end' && a.category === 'Mix'));
  // The file's shader runs: at 0.5 it shows the preview (blue) although the bar is half way.
  const r = await post('/mix/position', { value: 0.5, transition: 'Straight To End' });
  assert.is(r.status, 200, r.text);
  assert.ok(isBlue(await center()));
  assert.is((await post('/mix/position', { value: 0, transition: 'fade' })).status, 200);
});

test('a live input keeps its reader across takes: it is warm on preview and live again on the next take', async () => {
  const isYellow = (p: Px): boolean => p[0]! > 200 && p[1]! > 200 && p[2]! < 60;
  const before = (await get('/mix')).program.id;
  assert.is((await post('/mix/cue', { id: 'yellow' })).status, 200);
  assert.is((await post('/mix/take', { transition: 'cut' })).status, 200);
  assert.ok(isYellow(await center()));
  assert.is((await get('/mix')).program.id, 'yellow');
  assert.is((await post('/mix/take', { transition: 'cut' })).status, 200);
  assert.is((await get('/mix')).preview.id, 'yellow');
  // Past the live-frame freshness (2000 ms): a closed reader would show the no-signal card on the next take.
  await new Promise((r) => setTimeout(r, 2500));
  assert.is((await post('/mix/take', { transition: 'cut' })).status, 200);
  assert.ok(isYellow(await center()), 'the cued input still delivers frames');
  // Back to where the restart test expects the buses.
  assert.is((await post('/mix/take', { transition: 'cut' })).status, 200);
  assert.is((await post('/mix/cue', { id: before === 'preset:red' ? 'preset:blue' : 'preset:red' })).status, 200);
});

test('the mix state survives a restart', async () => {
  assert.is((await post('/mix/take', { transition: 'dip', durationMs: 0 })).status, 200);
  await waitUntil(async () => (await get('/mix')).program.id === 'preset:blue', 5000);
  assert.is((await post('/mix/position', { value: 0.25, transition: 'wipe' })).status, 200);
  assert.is((await post('/mix/position', { value: 0 })).status, 200);
  const before = await get('/mix');
  assert.is(before.preview.id, 'preset:red');
  await s.stop();
  s = await startServer({ dataDir, config });
  const after = await get('/mix');
  assert.is(after.program.id, before.program.id);
  assert.is(after.preview.id, 'preset:red');
  assert.equal(after.transition, before.transition);
  // The restored preview is warm: a cut take shows it on the next frame.
  await waitUntil(async () => isBlue(await center()), 10000);
  const t = await post('/mix/take', { transition: 'cut' });
  assert.is(t.status, 200, t.text);
  assert.ok(isRed(await center()));
});

test.run();
