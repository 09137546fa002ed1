// Per-instance ISF time over real HTTP and real GL: test shaders write their TIME and FRAMEINDEX into pixels read
// back from the output, and a two-pass effect seeds a persistent buffer only on its FRAMEINDEX 0. Everything is
// added, selected or taken on a server that has drawn many frames already, so the loop's clock is far from 0.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { req, sampleOutput, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = async (p: string) => (await req('GET', api(p))).json();
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });

// Four columns in `lo`..`lo`+0.5 of the width, value in red: whole seconds of TIME, its fraction, FRAMEINDEX low and
// high byte. Green and blue mark which probe drew the pixel, so a frame from before the change never counts.
const CLOCK = (lo: number, mark: string): string => `
  float x = isf_FragNormCoord.x - ${lo.toFixed(1)};
  if (x >= 0.0 && x < 0.5) {
    float col = floor(x * 8.0);
    float f = float(FRAMEINDEX);
    float v = col < 0.5 ? floor(TIME) : (col < 1.5 ? floor(fract(TIME) * 255.0 + 0.5) : (col < 2.5 ? mod(f, 256.0) : floor(f / 256.0)));
    c = vec4(min(v, 255.0) / 255.0, ${mark}, 1.0);
  }`;
const EFFECT_MARK = '1.0, 0.0';
const GENERATOR_MARK = '0.0, 0.5';
const TRANSITION_MARK = '0.0, 1.0';

const clockEffect = (
  name: string,
  lo: number,
): string => `/*{ "NAME": "${name}", "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" } ] }*/
void main() {
  vec4 c = IMG_THIS_PIXEL(inputImage);${CLOCK(lo, EFFECT_MARK)}
  gl_FragColor = c;
}`;
const CLOCK_GENERATOR = `/*{ "NAME": "Clock Generator", "INPUTS": [] }*/
void main() {
  vec4 c = vec4(0.0, 0.0, 0.0, 1.0);${CLOCK(0, GENERATOR_MARK)}
  gl_FragColor = c;
}`;
const CLOCK_TRANSITION = `/*{ "NAME": "Clock Transition", "INPUTS": [ { "NAME": "startImage", "TYPE": "image" },
  { "NAME": "endImage", "TYPE": "image" }, { "NAME": "progress", "TYPE": "float", "DEFAULT": 0.0 } ] }*/
void main() {
  vec4 c = mix(IMG_THIS_PIXEL(startImage), IMG_THIS_PIXEL(endImage), progress);${CLOCK(0, TRANSITION_MARK)}
  gl_FragColor = c;
}`;
// Seeds its persistent buffer with `tint` on its first frame only and shows the buffer from then on.
const SEED = `/*{ "NAME": "Seed", "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" },
  { "NAME": "tint", "TYPE": "color", "DEFAULT": [0.0, 1.0, 0.0, 1.0] } ],
  "PASSES": [ { "TARGET": "state", "PERSISTENT": true }, {} ] }*/
void main() {
  if (PASSINDEX == 0) gl_FragColor = FRAMEINDEX == 0 ? tint : IMG_THIS_PIXEL(state);
  else gl_FragColor = IMG_THIS_PIXEL(state);
}`;
const flat = (v: number): string => `/*{ "NAME": "Flat ${v}", "INPUTS": [] }*/
void main() { gl_FragColor = vec4(vec3(${v.toFixed(2)}), 1.0); }`;

const FPS = 30;

interface Clock {
  time: number;
  frame: number;
}

/** The clock a probe wrote in the half starting at `lo`, or null where that probe did not draw this frame. */
function decode(px: number[][], lo: number, mark: [number, number]): Clock | null {
  const cols = px.slice(lo * 8, lo * 8 + 4);
  if (!cols.every((p) => Math.abs(p[1]! - mark[0]) < 12 && Math.abs(p[2]! - mark[1]) < 12)) return null;
  const [sec, frac, low, high] = cols.map((p) => p[0]!);
  return { time: sec! + frac! / 255, frame: low! + 256 * high! };
}

const POINTS = Array.from({ length: 8 }, (_, i) => [(i + 0.5) / 8, 0.5] as [number, number]);

/** Waits for a frame on which the probe at `lo` drew, and returns its clock. */
async function readClock(lo: number, mark: [number, number]): Promise<Clock> {
  let found: Clock | null = null;
  let last: number[][] = [];
  try {
    await waitUntil(async () => (found = decode((last = await sampleOutput(s.base, POINTS)), lo, mark)) !== null, 30_000, 50);
  } catch {
    assert.unreachable(`the probe never drew; last pixels ${JSON.stringify(last)}`);
  }
  return found!;
}

const EFFECT: [number, number] = [255, 0];
const GENERATOR: [number, number] = [0, 128];
const TRANSITION: [number, number] = [0, 255];

/** Asserts that a clock started no earlier than `sentAt` (Date.now() before the request that started it). */
function startedAfter(c: Clock, sentAt: number, what: string): void {
  const elapsed = (Date.now() - sentAt) / 1000;
  // A frame's clock quantizes to 1/255 s; the loop draws at most one frame per period.
  assert.ok(c.time <= elapsed + 0.02, `${what}: TIME ${c.time} s, but it started ${elapsed} s ago`);
  assert.ok(c.frame <= Math.ceil(elapsed * FPS) + 2, `${what}: FRAMEINDEX ${c.frame} after ${elapsed} s at ${FPS} fps`);
}

const frames = async (): Promise<number> => (await get('/status')).render.frames;

async function framesPass(n: number): Promise<void> {
  const from = await frames();
  await waitUntil(async () => (await frames()) >= from + n, 30_000, 50);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` and empties the chain after it, passed or failed, so each case starts from the bare source. */
async function thenClear(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } finally {
    for (let i = 0; i < 16 && (await get('/effects')).count > 0; i++) await post('/effects/remove', { index: 1 });
  }
}

test.before(async () => {
  const dataDir = await tempDir();
  const dirs = { effects: join(dataDir, 'fx'), sources: join(dataDir, 'gens'), transitions: join(dataDir, 'tr') };
  for (const d of Object.values(dirs)) await mkdir(d);
  await writeFile(join(dirs.effects, 'clock_left.fs'), clockEffect('Clock Left', 0));
  await writeFile(join(dirs.effects, 'clock_right.fs'), clockEffect('Clock Right', 0.5));
  await writeFile(join(dirs.effects, 'seed.fs'), SEED);
  await writeFile(join(dirs.sources, 'clock_generator.fs'), CLOCK_GENERATOR);
  await writeFile(join(dirs.sources, 'flat_a.fs'), flat(0.25));
  await writeFile(join(dirs.sources, 'flat_b.fs'), flat(0.75));
  await writeFile(join(dirs.transitions, 'clock_transition.fs'), CLOCK_TRANSITION);
  s = await startServer({
    dataDir,
    config: {
      render: { width: 160, height: 90, fps: FPS },
      effects: { dirs: [dirs.effects] },
      sources: { dirs: [dirs.sources], firstRun: null },
      transitions: { dirs: [dirs.transitions] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
    },
  });
  // The loop's own FRAMEINDEX and TIME are well past 0 before anything is added.
  await waitUntil(async () => (await frames()) >= 4 * FPS, 60_000, 100);
});
test.after(async () => {
  await s?.cleanup();
});

test('an effect seeding a persistent buffer on FRAMEINDEX 0 draws it when added late; enabling restarts it', () =>
  thenClear(async () => {
    const center = async (): Promise<number[]> => (await sampleOutput(s.base))[0]!;
    const becomes = async (what: string, ok: (p: number[]) => boolean): Promise<void> => {
      let last: number[] = [];
      try {
        await waitUntil(async () => ok((last = await center())), 30_000, 50);
      } catch {
        assert.unreachable(`the output never became ${what}; last ${JSON.stringify(last)}`);
      }
    };
    const green = (p: number[]): boolean => p[1]! > 200 && p[0]! < 40 && p[2]! < 40;
    const blue = (p: number[]): boolean => p[2]! > 200 && p[0]! < 40 && p[1]! < 40;
    assert.is((await post('/effects/add', { type: 'seed' })).status, 200);
    await becomes('the seeded green', green);
    // A new tint changes nothing: only the first frame seeds.
    assert.is((await post('/effects/params', { index: 1, values: { tint: [0, 0, 1, 1] } })).status, 200);
    await framesPass(10);
    assert.ok(green(await center()), 'the buffer keeps its first-frame seed');
    // Enabled again, the effect starts over: its buffer is cleared and seeded with the new tint.
    assert.is((await post('/effects/enabled', { index: 1, enabled: false })).status, 200);
    await becomes('the black source', (p) => p[0]! < 40 && p[1]! < 40 && p[2]! < 40);
    assert.is((await post('/effects/enabled', { index: 1, enabled: true })).status, 200);
    await becomes('the new seed (blue)', blue);
  }));

test('an added effect reads TIME and FRAMEINDEX from its add; two fused members keep their own clocks', () =>
  thenClear(async () => {
    const sentLeft = Date.now();
    assert.is((await post('/effects/add', { type: 'clock_left' })).status, 200);
    const first = await readClock(0, EFFECT);
    startedAfter(first, sentLeft, 'clock_left');
    const leftSeen = Date.now();
    await sleep(2500);
    const sentRight = Date.now();
    assert.is((await post('/effects/add', { type: 'clock_right' })).status, 200);
    startedAfter(await readClock(0.5, EFFECT), sentRight, 'clock_right');
    await waitUntil(async () => JSON.stringify((await get('/status')).render.fusedRuns) === '[["clock_left","clock_right"]]', 60_000, 100);
    const px = await sampleOutput(s.base, POINTS);
    assert.equal((await get('/status')).render.fusedRuns, [['clock_left', 'clock_right']], 'drawn as one fused run');
    const left = decode(px, 0, EFFECT);
    const right = decode(px, 0.5, EFFECT);
    assert.ok(left && right, `both probes drew: ${JSON.stringify(px)}`);
    // The right one started at least (sentRight - leftSeen) after the left one.
    const gap = (sentRight - leftSeen) / 1000;
    assert.ok(left!.time - right!.time >= gap - 0.02, `left TIME ${left!.time}, right ${right!.time}, added ${gap} s apart`);
    assert.ok(left!.frame > right!.frame, `left FRAMEINDEX ${left!.frame}, right ${right!.frame}`);
    assert.ok(right!.time > 0, "the fused member's clock runs");
  }));

test("a generator's TIME and FRAMEINDEX start at its select, every select", async () => {
  for (let round = 0; round < 2; round++) {
    const sent = Date.now();
    const r = await post('/sources/select', { id: 'source:clock_generator' });
    assert.is(r.status, 200, r.text);
    startedAfter(await readClock(0, GENERATOR), sent, `select ${round + 1}`);
    await sleep(1500);
    const later = await readClock(0, GENERATOR);
    assert.ok(later.time >= 1, `the clock runs: ${later.time}`);
    assert.is((await post('/sources/select', { id: 'source:flat_a' })).status, 200);
  }
});

test("a transition's TIME and FRAMEINDEX start at 0 on each take", async () => {
  assert.is((await post('/sources/select', { id: 'source:flat_a' })).status, 200);
  assert.is((await post('/mix/cue', { id: 'source:flat_b' })).status, 200);
  for (let take = 0; take < 2; take++) {
    const sent = Date.now();
    const r = await post('/mix/take', { transition: 'clock_transition', durationMs: 3000 });
    assert.is(r.status, 200, r.text);
    startedAfter(await readClock(0, TRANSITION), sent, `take ${take + 1}`);
    await waitUntil(async () => (await get('/mix')).inTransition === false, 30_000, 100);
    await sleep(500);
  }
});

test.run();
