// Transitions never compile on the frame path: a take uses the transition's ready spare and the used spare is
// replaced between frames, so taking one transition, another, and the first again (and again) compiles nothing on
// demand. Counted by the render worker in /status.render.programCompiles, over real HTTP and real GL.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = async (p: string) => (await req('GET', api(p))).json();
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });

const transition = (name: string, expr: string): string => `/*{ "NAME": "${name}", "INPUTS": [ { "NAME": "startImage", "TYPE": "image" },
  { "NAME": "endImage", "TYPE": "image" }, { "NAME": "progress", "TYPE": "float", "DEFAULT": 0.0 } ] }*/
void main() { gl_FragColor = mix(IMG_THIS_PIXEL(startImage), IMG_THIS_PIXEL(endImage), ${expr}); }`;
const flat = (v: number): string => `/*{ "NAME": "Flat ${v}", "INPUTS": [] }*/
void main() { gl_FragColor = vec4(vec3(${v.toFixed(2)}), 1.0); }`;

interface Compiles {
  ahead: number;
  onDemand: number;
  pending: number;
}
const compiles = async (): Promise<Compiles> => (await get('/status')).render.programCompiles;

/** Waits until every used spare has been replaced (the worker does it in the idle time between frames). */
async function sparesReady(): Promise<Compiles> {
  let last: Compiles | undefined;
  try {
    await waitUntil(async () => (last = await compiles()).pending === 0, 30_000, 100);
  } catch {
    assert.unreachable(`used spares were never replaced: ${JSON.stringify(last)}`);
  }
  return last!;
}

async function take(type: string): Promise<void> {
  const r = await post('/mix/take', { transition: type, durationMs: 300 });
  assert.is(r.status, 200, r.text);
  await waitUntil(async () => (await get('/mix')).inTransition === false, 30_000, 100);
}

test.before(async () => {
  const dataDir = await tempDir();
  const sources = join(dataDir, 'gens');
  const transitions = join(dataDir, 'tr');
  await mkdir(sources);
  await mkdir(transitions);
  await writeFile(join(sources, 'flat_a.fs'), flat(0.25));
  await writeFile(join(sources, 'flat_b.fs'), flat(0.75));
  await writeFile(join(transitions, 'blend_x.fs'), transition('Blend X', 'progress'));
  await writeFile(join(transitions, 'blend_y.fs'), transition('Blend Y', 'progress * progress'));
  s = await startServer({
    dataDir,
    config: {
      render: { width: 160, height: 90, fps: 30 },
      sources: { dirs: [sources], firstRun: null },
      transitions: { dirs: [transitions] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
    },
  });
});
test.after(async () => {
  await s?.cleanup();
});

test('taking a transition again (after another, and twice in a row) compiles nothing on the frame path', async () => {
  assert.is((await post('/sources/select', { id: 'source:flat_a' })).status, 200);
  assert.is((await post('/mix/cue', { id: 'source:flat_b' })).status, 200);
  const start = await sparesReady();
  for (const type of ['blend_x', 'blend_y', 'blend_x', 'blend_x', 'blend_y']) {
    // Each take finds the spares replaced since the last one.
    await sparesReady();
    await take(type);
    const after = await compiles();
    assert.is(after.onDemand, start.onDemand, `take of ${type} compiled on demand: ${JSON.stringify(after)}`);
  }
  const end = await sparesReady();
  assert.ok(end.ahead > start.ahead, `spares were replaced between frames: ${JSON.stringify({ start, end })}`);
  assert.is(end.onDemand, start.onDemand);
});

test.run();
