// ISF header tolerance over real HTTP and GL: what desktop hosts accept loads here too (MIN above MAX, no DEFAULT,
// unknown keys), and an operator file replacing a built-in keeps the built-in presets that use it working.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { req, sampleOutput, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body });

// MIN and MAX written the wrong way round: red is the clamped level.
const SWAPPED = `/*{ "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" },
  { "NAME": "level", "TYPE": "float", "MIN": 1.0, "MAX": 0.0, "DEFAULT": 0.25 } ] }*/
void main() { gl_FragColor = vec4(level, 0.0, 0.0, 1.0); }`;
// No DEFAULT anywhere: the float starts at MIN, the point at the origin, the colour opaque black.
const NO_DEFAULT = `/*{ "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" },
  { "NAME": "gain", "TYPE": "float", "MIN": 0.5, "MAX": 1.0 },
  { "NAME": "where", "TYPE": "point2D" }, { "NAME": "tint", "TYPE": "color" } ] }*/
void main() { gl_FragColor = vec4(gain, where.x + tint.r, tint.a, 1.0); }`;
// Keys vjd does not know, at every level of the header.
const UNKNOWN = `/*{ "ISFVSN": "2", "VSN": "1.3", "VENDOR_EXTRA": { "anything": [1, 2] }, "CATEGORIES": ["Test"],
  "INPUTS": [ { "NAME": "inputImage", "TYPE": "image", "FLAVOUR": "sweet" },
    { "NAME": "amount", "TYPE": "float", "MIN": 0.0, "MAX": 1.0, "DEFAULT": 0.5, "IDENTITY": 0.0, "UI_HINT": "knob" } ],
  "PASSES": [ { "DESCRIPTION": "the only pass", "SOMETHING": true } ] }*/
void main() { gl_FragColor = vec4(0.0, amount, 0.0, 1.0); }`;
// Replaces the built-in rgb_split with only one of its inputs: the Chroma Shake preset sets amount 0.03.
const RGB_SPLIT = `/*{ "NAME": "My Split", "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" },
  { "NAME": "amount", "TYPE": "float", "MIN": 0.0, "MAX": 0.1, "DEFAULT": 0.0 } ] }*/
void main() { gl_FragColor = vec4(amount * 10.0, 0.0, 1.0, 1.0); }`;

async function only(type: string): Promise<void> {
  while ((await req('GET', api('/effects'))).json().count > 0) assert.is((await post('/effects/remove', { index: 1 })).status, 200);
  if (type) {
    const r = await post('/effects/add', { type });
    assert.is(r.status, 200, r.text);
  }
}

async function outputBecomes(what: string, ok: (px: number[]) => boolean): Promise<void> {
  let last: number[] = [];
  try {
    await waitUntil(async () => ok((last = (await sampleOutput(s.base))[0]!)), 30_000, 100);
  } catch {
    assert.unreachable(`output never became ${what}; last ${JSON.stringify(last)}`);
  }
}

const near = (a: number, b: number, tol = 3): boolean => Math.abs(a - b) <= tol;
const catalogItem = async (type: string): Promise<any> =>
  (await req('GET', api('/effects/available'))).json().items.find((i: { type: string }) => i.type === type);

test.before(async () => {
  const dataDir = await tempDir();
  const effects = join(dataDir, 'fx');
  await mkdir(effects);
  await writeFile(join(effects, 'swapped.fs'), SWAPPED);
  await writeFile(join(effects, 'no_default.fs'), NO_DEFAULT);
  await writeFile(join(effects, 'unknown_keys.fs'), UNKNOWN);
  await writeFile(join(effects, 'rgb_split.fs'), RGB_SPLIT);
  s = await startServer({ dataDir, config: { effects: { dirs: [effects] }, live: { test: [], streams: [], v4l2: { enabled: false } } } });
  const r = await post('/sources/select', { id: 'source:plasma' });
  assert.is(r.status, 200, r.text);
});
test.after(async () => {
  await s?.cleanup();
});

test('MIN above MAX: the file loads with the range swapped, and the catalog says so', async () => {
  const item = await catalogItem('swapped');
  assert.ok(item, 'listed');
  const level = item.inputs.find((i: { name: string }) => i.name === 'level');
  assert.equal([level.min, level.max, level.default], [0, 1, 0.25]);
  assert.match(item.warnings.join(' '), /MIN 1 is greater than MAX 0; swapped/);
  assert.match(s.logs(), /ISF header corrected/);
  await only('swapped');
  await outputBecomes('red 0.25', (px) => near(px[0]!, 64));
  // Values are clamped to the swapped range.
  assert.is((await post('/effects/params', { index: 1, values: { level: 5 } })).status, 200);
  await outputBecomes('red 1', (px) => near(px[0]!, 255));
});

test('no DEFAULT: a float starts at MIN, a point at 0, a colour opaque black', async () => {
  const item = await catalogItem('no_default');
  assert.is(item.inputs.find((i: { name: string }) => i.name === 'gain').default, 0.5);
  await only('no_default');
  await outputBecomes('0.5, 0, 1', (px) => near(px[0]!, 128) && near(px[1]!, 0) && near(px[2]!, 255));
});

test('unknown keys in the header, inputs and passes are ignored', async () => {
  assert.ok(await catalogItem('unknown_keys'), 'listed');
  await only('unknown_keys');
  await outputBecomes('green 0.5', (px) => near(px[1]!, 128) && near(px[0]!, 0));
});

test('an operator file replacing a built-in keeps its built-in preset working and says what it replaced', async () => {
  const item = await catalogItem('rgb_split');
  assert.is(item.name, 'My Split');
  assert.is(item.replaces, 'builtin:rgb_split.fs');
  await only('');
  const r = await post('/actions/preset.chroma_shake', {});
  assert.is(r.status, 200, r.text);
  assert.is(r.json().result.type, 'rgb_split');
  // The preset's amount reached the replacement; the inputs it does not have were left out.
  await outputBecomes('red 0.3 with blue', (px) => near(px[0]!, 77, 4) && near(px[2]!, 255));
  assert.match(s.logs(), /built-in preset keeps the values its replaced effect accepts/);
});

test.run();
