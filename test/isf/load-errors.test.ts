// One error rule for every kind over real HTTP: a generator, a preset and a transition that do not compile answer
// SOURCE_LOAD_FAILED / TRANSITION_LOAD_FAILED with the `.fs` line (never 504 or INTERNAL), the catalog marks them
// (`loadError`, GET /catalog/errors with parse problems too), and fixing the files on disk clears it all.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
let dirs: { sources: string; transitions: string; effects: string; presets: string };
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = async (p: string) => (await req('GET', api(p))).json();
const post = (p: string, body?: unknown) => req('POST', api(p), { body: body ?? {}, timeoutMs: 20000 });

// The error sits on line 6 of the file (the header is lines 1-2).
const generator = (factor: string): string => `/*{ "NAME": "Broken Gen",
  "INPUTS": [ { "NAME": "speed", "TYPE": "float", "DEFAULT": 1.0 } ] }*/
void main() {
  vec3 c = vec3(0.2, 0.4, 0.6);
  c += speed * 0.0;
  gl_FragColor = vec4(c, 1.0) * ${factor};
}
`;
// The error sits on line 7 of the file.
const transition = (extra: string): string => `/*{ "NAME": "Broken Fade", "INPUTS": [
  { "NAME": "startImage", "TYPE": "image" },
  { "NAME": "endImage", "TYPE": "image" },
  { "NAME": "progress", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.0 } ] }*/
void main() {
  vec4 a = IMG_NORM_PIXEL(startImage, isf_FragNormCoord);
  gl_FragColor = mix(a, IMG_NORM_PIXEL(endImage, isf_FragNormCoord), progress) + ${extra};
}
`;
// A header that is not JSON (a comma missing at the end of line 2): the parser names line 3.
const BAD_HEADER = `/*{
  "NAME": "Bad Header"
  "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" } ]
}*/
void main() { gl_FragColor = IMG_THIS_PIXEL(inputImage); }
`;

function errorOf(r: { status: number; text: string; json(): any }, status: number, code: string): any {
  assert.is(r.status, status, r.text);
  const b = r.json();
  assert.is(b.error, true);
  assert.is(b.code, code, r.text);
  return b;
}

const errorsOf = async (): Promise<any[]> => (await get('/catalog/errors')).items;
const entry = (items: any[], kind: string, type: string): any => items.find((e) => e.kind === kind && e.type === type);

test.before(async () => {
  const dataDir = await tempDir();
  dirs = {
    sources: join(dataDir, 'gens'),
    transitions: join(dataDir, 'transitions'),
    effects: join(dataDir, 'fx'),
    presets: join(dataDir, 'presets'),
  };
  for (const d of Object.values(dirs)) await mkdir(d, { recursive: true });
  await writeFile(join(dirs.sources, 'broken_gen.fs'), generator('missingFactor'));
  await writeFile(join(dirs.transitions, 'broken_fade.fs'), transition('notDeclared'));
  await writeFile(join(dirs.effects, 'bad_header.fs'), BAD_HEADER);
  await writeFile(join(dirs.presets, 'broken_look.json'), JSON.stringify({ name: 'Broken Look', source: 'broken_gen', inputs: {} }));
  await writeFile(join(dirs.presets, 'red.json'), JSON.stringify({ name: 'Red', source: 'solid_color', inputs: { color: [1, 0, 0, 1] } }));
  s = await startServer({
    dataDir,
    config: {
      sources: { dirs: [dirs.sources] },
      transitions: { dirs: [dirs.transitions] },
      effects: { dirs: [dirs.effects] },
      presets: { dirs: [dirs.presets] },
    },
  });
  // Compile results reach the catalog after the render worker compiled the catalog ahead.
  await waitUntil(async () => {
    const items = await errorsOf();
    return entry(items, 'generator', 'broken_gen') !== undefined && entry(items, 'transition', 'broken_fade') !== undefined;
  }, 30000);
});
test.after(async () => {
  await s.cleanup();
});

test('GET /catalog/errors lists each file that did not load or compile, with kind, stage and line', async () => {
  const body = await get('/catalog/errors');
  assert.is(body.count, body.items.length);
  const gen = entry(body.items, 'generator', 'broken_gen');
  assert.equal([gen.stage, gen.line, gen.file], ['compile', 6, join(dirs.sources, 'broken_gen.fs')]);
  assert.match(gen.message, /missingFactor/);
  const tr = entry(body.items, 'transition', 'broken_fade');
  assert.equal([tr.stage, tr.line, tr.file], ['compile', 7, join(dirs.transitions, 'broken_fade.fs')]);
  assert.match(tr.message, /notDeclared/);
  const bad = entry(body.items, 'effect', 'bad_header');
  assert.equal([bad.stage, bad.line, bad.file], ['parse', 3, join(dirs.effects, 'bad_header.fs')]);
  assert.not.ok(
    body.items.some((e: any) => e.file.startsWith('builtin:')),
    'every built-in loads',
  );
});

test('the lists mark what does not compile with loadError (and only that)', async () => {
  const sources = (await get('/sources')).items;
  const gen = sources.find((i: any) => i.id === 'source:broken_gen');
  assert.match(gen.loadError, /broken_gen\.fs line 6: .*missingFactor/);
  assert.match(sources.find((i: any) => i.id === 'preset:broken_look').loadError, /line 6/, 'a preset of a broken generator too');
  assert.is(sources.find((i: any) => i.id === 'source:solid_color').loadError, undefined);
  const transitions = (await get('/transitions')).items;
  assert.match(transitions.find((t: any) => t.type === 'broken_fade').loadError, /broken_fade\.fs line 7/);
  assert.is(transitions.find((t: any) => t.type === 'fade').loadError, undefined);
  const effects = (await get('/effects/available')).items;
  assert.not.ok(
    effects.some((e: any) => e.type === 'bad_header'),
    'a file that does not parse is not listed',
  );
  assert.not.ok(effects.some((e: any) => 'loadError' in e));
});

test('selecting or cueing a generator that does not compile: SOURCE_LOAD_FAILED with the line, nothing changed', async () => {
  assert.is((await post('/sources/select', { id: 'source:solid_color' })).status, 200);
  const sel = errorOf(await post('/sources/select', { id: 'source:broken_gen' }), 500, 'SOURCE_LOAD_FAILED');
  assert.match(sel.message, /broken_gen\.fs line 6/);
  assert.match(sel.message, /missingFactor/);
  assert.is(sel.details, undefined);
  const preset = errorOf(await post('/sources/select', { id: 'preset:broken_look' }), 500, 'SOURCE_LOAD_FAILED');
  assert.match(preset.message, /line 6/);
  assert.is((await get('/sources/current')).id, 'source:solid_color');
  const cue = errorOf(await post('/mix/cue', { id: 'source:broken_gen' }), 500, 'SOURCE_LOAD_FAILED');
  assert.match(cue.message, /line 6/);
  assert.is((await get('/mix')).preview, null);
  errorOf(await post('/actions/source.source:broken_gen'), 500, 'SOURCE_LOAD_FAILED');
});

test('taking a transition that does not compile: TRANSITION_LOAD_FAILED with the line, the mixer keeps its transition', async () => {
  assert.is((await post('/mix/cue', { id: 'preset:red' })).status, 200);
  const before = (await get('/mix')).transition;
  const take = errorOf(await post('/mix/take', { transition: 'broken_fade', durationMs: 500 }), 500, 'TRANSITION_LOAD_FAILED');
  assert.match(take.message, /broken_fade\.fs line 7/);
  assert.match(take.message, /notDeclared/);
  const pos = errorOf(await post('/mix/position', { value: 0.5, transition: 'broken_fade' }), 500, 'TRANSITION_LOAD_FAILED');
  assert.match(pos.message, /line 7/);
  const mix = await get('/mix');
  assert.equal(mix.transition, before);
  assert.is(mix.inTransition, false);
  assert.is(mix.preview.id, 'preset:red');
  const sel = errorOf(
    await post('/sources/select', { id: 'source:gradient', transition: 'broken_fade', durationMs: 500 }),
    500,
    'TRANSITION_LOAD_FAILED',
  );
  assert.match(sel.message, /line 7/);
  assert.is((await get('/sources/current')).id, 'source:solid_color');
});

test('fixing the files on disk clears the errors; then select and take work', async () => {
  await writeFile(join(dirs.sources, 'broken_gen.fs'), generator('1.0'));
  await writeFile(join(dirs.transitions, 'broken_fade.fs'), transition('vec4(0.0)'));
  await writeFile(join(dirs.effects, 'bad_header.fs'), BAD_HEADER.replace('"Bad Header"', '"Bad Header",'));
  await waitUntil(async () => (await errorsOf()).length === 0, 30000);
  assert.equal(await get('/catalog/errors'), { count: 0, items: [] });
  assert.is((await get('/sources')).items.find((i: any) => i.id === 'source:broken_gen').loadError, undefined);
  assert.is((await get('/transitions')).items.find((t: any) => t.type === 'broken_fade').loadError, undefined);
  assert.ok((await get('/effects/available')).items.some((e: any) => e.type === 'bad_header'));
  const sel = await post('/sources/select', { id: 'source:broken_gen' });
  assert.is(sel.status, 200, sel.text);
  assert.is((await post('/mix/cue', { id: 'preset:red' })).status, 200);
  const take = await post('/mix/take', { transition: 'broken_fade', durationMs: 200 });
  assert.is(take.status, 200, take.text);
});

test.run();
