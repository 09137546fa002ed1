// The GPU sampling pass of pixel mapping over a real server (POST /_test/pixel-map): on a program split red | green
// | blue with a white top tenth, point samples read each third and tell top from bottom, an area straddling two
// thirds reads their mean, blackout and the dimmer apply, and a table of 10 000 points wraps the sample rows.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { req, sampleOutput, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

const W = 320;
const H = 180;
const THIRDS = `/*{ "NAME": "Thirds", "INPUTS": [] }*/
void main() {
  vec2 p = isf_FragNormCoord;
  vec3 c = p.x < 1.0 / 3.0 ? vec3(1.0, 0.0, 0.0) : p.x < 2.0 / 3.0 ? vec3(0.0, 1.0, 0.0) : vec3(0.0, 0.0, 1.0);
  gl_FragColor = vec4(p.y > 0.9 ? vec3(1.0) : c, 1.0);
}`;
const RED = [255, 0, 0];
const GREEN = [0, 255, 0];
const BLUE = [0, 0, 255];
const WHITE = [255, 255, 255];

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });

/** The samples the pass wrote for a table ({points} or {grid}). */
async function pixelMap(body: unknown): Promise<number[][]> {
  const r = await post('/_test/pixel-map', body);
  // A pass that failed in the worker shows only as a timeout here: its log line says why.
  if (r.status !== 200)
    assert.unreachable(
      `${r.text}\n${s
        .logs()
        .split('\n')
        .filter((l) => /"error"/.test(l))
        .slice(-5)
        .join('\n')}`,
    );
  return r.json().samples;
}

const near = (a: readonly number[], b: readonly number[], tol = 2): boolean => b.every((v, i) => Math.abs(a[i]! - v) <= tol);

/** Waits until the samples of `points` match `want` (state changes reach the renderer a frame or so later). */
async function samplesBecome(points: number[][], want: number[][], tol = 2): Promise<void> {
  let got: number[][] = [];
  await waitUntil(async () => {
    got = await pixelMap({ points });
    return want.every((w, i) => near(got[i]!, w, tol));
  }, 15000).catch(() => assert.unreachable(`samples ${JSON.stringify(got)}, want ${JSON.stringify(want)}`));
}

test.before(async () => {
  const dir = await tempDir();
  await mkdir(join(dir, 'gens'));
  await writeFile(join(dir, 'gens', 'thirds.fs'), THIRDS);
  s = await startServer({
    config: {
      render: { width: W, height: H, fps: 30 },
      sources: { dirs: [join(dir, 'gens')] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
    },
  });
  const r = await post('/sources/select', { id: 'source:thirds' });
  assert.is(r.status, 200, r.text);
  await waitUntil(async () => near((await sampleOutput(s.base))[0]!, GREEN), 15000);
});

test.after(async () => {
  await s?.cleanup();
});

const POINTS = [
  [1 / 6, 0.5, 0, 0],
  [0.5, 0.5, 0, 0],
  [5 / 6, 0.5, 0, 0],
  // Top-left origin: v near 0 is the white top, near 1 the bottom.
  [0.5, 0.05, 0, 0],
  [0.5, 0.95, 0, 0],
];

test('point samples read each third, top and bottom the right way up', async () => {
  const got = await pixelMap({ points: POINTS });
  const want = [RED, GREEN, BLUE, WHITE, GREEN];
  want.forEach((w, i) => assert.ok(near(got[i]!, w, 0), `point ${i}: ${got[i]} want ${w}`));
  // The same pixels as the output readback reads.
  const out = await sampleOutput(
    s.base,
    POINTS.map((p) => [p[0]!, p[1]!]),
  );
  out.forEach((o, i) => assert.ok(near(got[i]!, o, 0), `point ${i}: ${got[i]} but the output reads ${o}`));
});

test('an area straddling two thirds reads their mean; one inside a third reads it whole', async () => {
  const got = await pixelMap({
    points: [
      [1 / 3, 0.5, 0.05, 0.05],
      [2 / 3, 0.5, 0.05, 0.05],
      [1 / 6, 0.5, 0.1, 0.1],
    ],
  });
  assert.ok(near(got[0]!, [128, 128, 0]), `red | green: ${got[0]}`);
  assert.ok(near(got[1]!, [0, 128, 128]), `green | blue: ${got[1]}`);
  assert.ok(near(got[2]!, RED, 0), `inside red: ${got[2]}`);
});

test('blackout makes every sample black, and the dimmer at 0.5 halves them', async () => {
  assert.is((await post('/global/blackout', { enabled: true })).status, 200);
  await samplesBecome(
    POINTS,
    [
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ],
    0,
  );
  assert.is((await post('/global/blackout', { enabled: false })).status, 200);
  assert.is((await post('/global/dimmer', { value: 0.5 })).status, 200);
  await samplesBecome(POINTS, [
    [128, 0, 0],
    [0, 128, 0],
    [0, 0, 128],
    [128, 128, 128],
    [0, 128, 0],
  ]);
  assert.is((await post('/global/dimmer', { value: 1 })).status, 200);
  await samplesBecome(POINTS, [RED, GREEN, BLUE, WHITE, GREEN], 0);
});

/** What the program shows at (u, v): the colour of the output pixel under it, decided at its centre as ISF does. */
function expected(u: number, v: number): number[] {
  const x = (Math.floor(u * W) + 0.5) / W;
  const yUp = 1 - (Math.floor(v * H) + 0.5) / H;
  if (yUp > 0.9) return WHITE;
  return x < 1 / 3 ? RED : x < 2 / 3 ? GREEN : BLUE;
}

test('a table of 10 000 points wraps the sample rows and keeps every pixel in its place', async () => {
  const cols = 100;
  const got = await pixelMap({ grid: { cols, rows: 100, du: 0, dv: 0 } });
  assert.is(got.length, 10_000);
  const wrong: string[] = [];
  got.forEach((px, i) => {
    const u = ((i % cols) + 0.5) / cols;
    const v = (Math.floor(i / cols) + 0.5) / 100;
    const want = expected(u, v);
    if (!near(px, want, 0)) wrong.push(`#${i} (${u}, ${v}): ${px} want ${want}`);
  });
  assert.is(wrong.length, 0, wrong.slice(0, 10).join('; '));
});

test('an empty table stops the pass; a bad point is refused', async () => {
  const r = await post('/_test/pixel-map', {});
  assert.is(r.status, 200, r.text);
  assert.equal(r.json().samples, []);
  assert.is((await post('/_test/pixel-map', { points: [[1.5, 0, 0, 0]] })).status, 400);
});

test.run();
