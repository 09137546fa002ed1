// Render memory over real HTTP: the program cache stays within its limit however many ISF files a folder holds,
// and repeated add/remove of the same 20 effects leaves the live GL object counts where they were after warm-up.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = async (p: string) => (await req('GET', api(p))).json();
const post = (p: string, body?: unknown) => req('POST', api(p), { body: body ?? {}, timeoutMs: 20000 });

/** More operator effects than the cache keeps spares for, on top of the built-ins. */
const EXTRA = 40;
const extraEffect = (k: number): string => `/*{ "NAME": "Tint ${k}", "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" } ] }*/
void main() { gl_FragColor = IMG_THIS_PIXEL(inputImage) * vec4(1.0, ${(k / EXTRA).toFixed(3)}, 1.0, 1.0); }
`;
const TWENTY = [
  'invert',
  'hue_shift',
  'blur',
  'bloom',
  'trails',
  'feedback',
  'pixelate',
  'posterize',
  'mirror',
  'kaleidoscope',
  'rgb_split',
  'saturation',
  'scanlines',
  'sharpen',
  'solarize',
  'swirl',
  'threshold',
  'tile',
  'vignette',
  'wave_distort',
];
/** The community tier's ceiling: the 20 go in and out in batches of at most this many. */
const BATCH = 8;

test.before(async () => {
  const dataDir = await tempDir();
  const fx = join(dataDir, 'fx');
  await mkdir(fx);
  for (let k = 0; k < EXTRA; k++) await writeFile(join(fx, `tint_${k}.fs`), extraEffect(k));
  // Fusing off: which fused runs get compiled depends on which chain states a frame happened to see, so under load
  // a later round can compile one the warm-up rounds skipped (that cache has its own fixed bound of entries).
  s = await startServer({ dataDir, config: { effects: { dirs: [fx] }, render: { width: 320, height: 180, fps: 30, fuse: false } } });
  await waitUntil(async () => (await get('/effects/available')).items.some((i: any) => i.type === `tint_${EXTRA - 1}`), 30000);
});
test.after(async () => {
  await s.cleanup();
});

/** A status value once three readings in a row (each a new stats update) agree. */
async function settled<T>(read: () => Promise<T>): Promise<T> {
  let last = '';
  let same = 0;
  let value!: T;
  await waitUntil(
    async () => {
      value = await read();
      const text = JSON.stringify(value);
      same = text === last ? same + 1 : 0;
      last = text;
      return same >= 2;
    },
    60000,
    300,
  );
  return value;
}

const render = async (): Promise<any> => (await get('/status')).render;

async function round(): Promise<void> {
  for (let i = 0; i < TWENTY.length; i += BATCH) {
    const batch = TWENTY.slice(i, i + BATCH);
    for (const type of batch) assert.is((await post('/effects/add', { type })).status, 200, type);
    for (let n = 0; n < batch.length; n++) assert.is((await post('/effects/remove', { index: 1 })).status, 200);
  }
}

test('the program cache holds at most its limit of spares, whatever the catalog size; /status reports it', async () => {
  const r = await settled(async () => (await render()).programs);
  const types =
    (await get('/effects/available')).count + (await get('/sources')).items.filter((i: any) => i.sourceKind === 'generator').length;
  assert.ok(types > r.limit, `the catalog (${types} types) is larger than the cache (${r.limit})`);
  assert.ok(r.cached > 0 && r.cached <= r.limit, JSON.stringify(r));
  // Every compiled program is a GL program: the live count is bounded by the cache, not by the catalog.
  const gl = (await render()).gl;
  assert.ok(gl.programs < types, `GL programs ${gl.programs} for ${types} catalog types`);
  // An effect without a spare still adds (compiled on use).
  assert.is((await post('/effects/add', { type: 'tint_0' })).status, 200);
  assert.is((await post('/effects/remove', { index: 1 })).status, 200);
});

test('repeated add/remove of the same 20 effects: GL object counts and the cache flat after warm-up', async () => {
  for (let i = 0; i < 3; i++) await round();
  // Spares are refilled and fused programs compiled between frames; the baseline is taken once counts stop moving.
  const before = await settled(async () => {
    const r = await render();
    return { gl: r.gl, cached: r.programs.cached };
  });
  for (let i = 0; i < 27; i++) await round();
  const after = await settled(async () => {
    const r = await render();
    return { gl: r.gl, cached: r.programs.cached };
  });
  assert.equal(after, before);
});

test.run();
