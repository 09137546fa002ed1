// Output mapping end to end: streams decoded by a real ffmpeg receiver show a corner-pinned checkerboard with its
// known cells where the pin puts them, two slices of one program on two outputs, a mesh, soft edges that ramp as
// specified, the test card; a map is changed live without restarting the output (one that shared its encoder with
// another moves to its own), refused with the field named when it cannot be drawn, and kept across a restart.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { req, startServer, tempDir, type TestServer } from '../helpers/server.js';
import { freeUdpPort, receiveUdp } from './media.js';
import { blendLevel, invert3, project, squareToQuad } from '../../src/shared/output-map.js';

const W = 320;
const H = 180;
const CELLS = 4;
const COLOURS: Record<string, number[]> = {
  black: [0, 0, 0],
  white: [255, 255, 255],
  red: [255, 0, 0],
  green: [0, 255, 0],
  blue: [0, 0, 255],
  yellow: [255, 255, 0],
};

// A 4×4 checkerboard whose corner cells say which corner they are: top-left red, top-right green, bottom-right
// blue, bottom-left yellow.
const CHECKER = `/*{ "NAME": "Checker", "INPUTS": [] }*/
void main() {
  vec2 p = vec2(isf_FragNormCoord.x, 1.0 - isf_FragNormCoord.y);
  vec2 c = floor(p * ${CELLS}.0);
  vec3 col = mod(c.x + c.y, 2.0) < 0.5 ? vec3(1.0) : vec3(0.0);
  if (c.x < 0.5 && c.y < 0.5) col = vec3(1.0, 0.0, 0.0);
  if (c.x > 2.5 && c.y < 0.5) col = vec3(0.0, 1.0, 0.0);
  if (c.x > 2.5 && c.y > 2.5) col = vec3(0.0, 0.0, 1.0);
  if (c.x < 0.5 && c.y > 2.5) col = vec3(1.0, 1.0, 0.0);
  gl_FragColor = vec4(col, 1.0);
}`;
const WHITE = `/*{ "NAME": "White", "INPUTS": [] }*/
void main() { gl_FragColor = vec4(1.0); }`;

/** The checkerboard's colour at a point of the program (shares, origin top-left). */
function checker(x: number, y: number): string {
  const [cx, cy] = [Math.floor(x * CELLS), Math.floor(y * CELLS)];
  if (cy === 0 && cx === 0) return 'red';
  if (cy === 0 && cx === CELLS - 1) return 'green';
  if (cy === CELLS - 1 && cx === CELLS - 1) return 'blue';
  if (cy === CELLS - 1 && cx === 0) return 'yellow';
  return (cx + cy) % 2 === 0 ? 'white' : 'black';
}

/** Far enough from a cell border (in shares of a cell) that the encoder's blur cannot reach. */
const clear = (v: number): boolean => {
  const f = (v * CELLS) % 1;
  return f > 0.2 && f < 0.8;
};

let s: TestServer;
let dir: string;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });
const outputs = async () => (await req('GET', api('/outputs'))).json().items as Array<Record<string, any>>;

/** The shared encoder an output's stream comes from (GET /status). */
async function encoderOf(id: string): Promise<string | undefined> {
  const encoders = (await req('GET', api('/status'))).json().outputs.encoders as Array<{ id: string; outputs: string[] }>;
  return encoders.find((e) => e.outputs.includes(id))?.id;
}

function rgbAt(frame: Buffer, x: number, y: number): number[] {
  const [px, py] = [Math.min(W - 2, Math.max(1, Math.round(x * W))), Math.min(H - 2, Math.max(1, Math.round(y * H)))];
  const sum = [0, 0, 0];
  for (let dy = -1; dy <= 1; dy++)
    for (let dx = -1; dx <= 1; dx++) for (let c = 0; c < 3; c++) sum[c]! += frame[((py + dy) * W + px + dx) * 3 + c]!;
  return sum.map((v) => v / 9);
}

const nameOf = (rgb: number[]): string => Object.entries(COLOURS).sort(([, a], [, b]) => dist(rgb, a) - dist(rgb, b))[0]![0];
const dist = (a: number[], b: number[]) => a.reduce((t, v, i) => t + (v - b[i]!) ** 2, 0);

/** Decoded frames until `ok` holds for one (a map posted a moment ago may not have reached the stream yet). */
async function frameWhere(port: number, ok: (f: Buffer) => string | null, what: string): Promise<Buffer> {
  let problem: string | null = 'no frame';
  for (let i = 0; i < 10; i++) {
    const [f] = await receiveUdp(port, W, H, 1, { skip: 4 });
    problem = ok(f!);
    if (problem === null) return f!;
  }
  assert.unreachable(`${what}: ${problem}`);
  throw new Error('unreachable');
}

/** Every point of a grid over the output that sits clear of borders: its colour, or the first that is wrong. */
function expectColours(expect: (x: number, y: number) => string | null): (f: Buffer) => string | null {
  return (f) => {
    for (let j = 0; j < 12; j++)
      for (let i = 0; i < 16; i++) {
        const [x, y] = [(i + 0.5) / 16, (j + 0.5) / 12];
        const want = expect(x, y);
        if (want === null) continue;
        const got = nameOf(rgbAt(f, x, y));
        if (got !== want) return `at (${x.toFixed(3)}, ${y.toFixed(3)}) want ${want}, got ${got} ${rgbAt(f, x, y).map(Math.round)}`;
      }
    return null;
  };
}

async function addStream(name: string): Promise<{ id: string; port: number }> {
  const port = await freeUdpPort();
  const r = await post('/outputs/add', { kind: 'stream', name, url: `udp://127.0.0.1:${port}?pkt_size=1316`, fps: 15 });
  assert.is(r.status, 200, r.text);
  return { id: r.json().current.id, port };
}

const setMap = (id: string, map: unknown) => post(`/outputs/${id}/map`, { map });

async function start(): Promise<void> {
  s = await startServer({
    dataDir: dir,
    config: {
      render: { width: W, height: H, fps: 30 },
      sources: { dirs: [join(dir, 'gens')] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
    },
  });
}

let a: { id: string; port: number };
let b: { id: string; port: number };

test.before(async () => {
  dir = await tempDir();
  await mkdir(join(dir, 'gens'));
  await writeFile(join(dir, 'gens', 'checker.fs'), CHECKER);
  await writeFile(join(dir, 'gens', 'white.fs'), WHITE);
  await start();
  const r = await post('/sources/select', { id: 'source:checker' });
  assert.is(r.status, 200, r.text);
  a = await addStream('left');
  b = await addStream('right');
});

test.after(async () => {
  await s?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

test('a corner-pin puts every cell of the checkerboard where the pin says', async () => {
  const corners = [
    [0.2, 0.1],
    [0.85, 0.2],
    [0.9, 0.9],
    [0.1, 0.8],
  ] as Array<[number, number]>;
  const r = await setMap(a.id, { corners });
  assert.is(r.status, 200, r.text);
  assert.equal(r.json().current.map, { corners });
  const inverse = invert3(squareToQuad(corners));
  await frameWhere(
    a.port,
    expectColours((x, y) => {
      const [u, v] = project(inverse, x, y);
      const inside = (t: number) => t > 0.03 && t < 0.97;
      if (u < -0.03 || u > 1.03 || v < -0.03 || v > 1.03) return 'black';
      if (!inside(u) || !inside(v) || !clear(u) || !clear(v)) return null;
      return checker(u, v);
    }),
    'corner-pinned output',
  );
  // It left the encoder it shared with the other output, which still shows the program as it is.
  assert.is.not(await encoderOf(a.id), await encoderOf(b.id));
  await frameWhere(
    b.port,
    expectColours((x, y) => (clear(x) && clear(y) ? checker(x, y) : null)),
    'unmapped output',
  );
});

test('two slices of one program on two outputs, changed live without a restart', async () => {
  // `a` left the encoder it shared with `b` when it was pinned; `b`, alone on it now, takes its map without a restart.
  const before = (await outputs()).find((o) => o.id === a.id)!;
  const beforeB = (await outputs()).find((o) => o.id === b.id)!;
  assert.is((await setMap(a.id, { slice: { x: 0, y: 0, w: 0.5, h: 1 } })).status, 200);
  assert.is((await setMap(b.id, { slice: { x: 0.5, y: 0, w: 0.5, h: 1 } })).status, 200);
  const half = (from: number) => (x: number, y: number) => (clear(from + x / 2) && clear(y) ? checker(from + x / 2, y) : null);
  await frameWhere(a.port, expectColours(half(0)), 'left slice');
  await frameWhere(b.port, expectColours(half(0.5)), 'right slice');
  const after = (await outputs()).find((o) => o.id === a.id)!;
  assert.is(after.startedAt, before.startedAt, 'the stream was not restarted');
  assert.is(after.restarts, 0);
  const afterB = (await outputs()).find((o) => o.id === b.id)!;
  assert.is(afterB.startedAt, beforeB.startedAt, 'the stream that had shared its encoder was not restarted');
  assert.is.not(await encoderOf(b.id), await encoderOf(a.id));
});

test('a mesh warps the slice into its cells', async () => {
  // 2×1 cells: the left half of the picture lands in the output's top-left quarter, the right half in its bottom-right.
  const points = [
    [0, 0],
    [0.5, 0],
    [1, 0.5],
    [0, 0.5],
    [0.5, 0.5],
    [1, 1],
  ];
  const r = await setMap(a.id, { mesh: { cols: 2, rows: 1, points } });
  assert.is(r.status, 200, r.text);
  await frameWhere(
    a.port,
    expectColours((x, y) => {
      // The top-left quarter shows the left half of the program squeezed, the corner cell red.
      if (x > 0.04 && x < 0.08 && y > 0.03 && y < 0.1) return 'red';
      // Below the mesh's left cell and above its right one: nothing.
      if (x < 0.45 && y > 0.6) return 'black';
      return null;
    }),
    'mesh output',
  );
});

test('soft edges ramp as specified, and the test card shows its edge bands', async () => {
  assert.is((await post('/sources/select', { id: 'source:white' })).status, 200);
  const r = await setMap(a.id, { blend: { left: 0.5, gamma: 2 } });
  assert.is(r.status, 200, r.text);
  const level = (x: number) => rgbAt(frameNow!, x, 0.5)[1]!;
  let frameNow: Buffer | null = null;
  await frameWhere(
    a.port,
    (f) => {
      frameNow = f;
      for (const x of [0.1, 0.2, 0.3, 0.4, 0.75]) {
        const want = 255 * blendLevel(Math.min(1, x / 0.5), 2);
        if (Math.abs(level(x) - want) > 14) return `at x ${x}: level ${Math.round(level(x))}, want ${Math.round(want)}`;
      }
      return null;
    },
    'soft edge',
  );
  assert.is((await setMap(a.id, { testCard: true })).status, 200);
  await frameWhere(
    a.port,
    expectColours((x, y) => (y < 0.03 && x > 0.2 && x < 0.8 ? 'red' : y > 0.97 && x > 0.2 && x < 0.8 ? 'blue' : null)),
    'test card',
  );
  assert.is((await post('/sources/select', { id: 'source:checker' })).status, 200);
});

test('maps that cannot be drawn are refused naming the field; an unknown output is 404', async () => {
  const cases: Array<[unknown, string]> = [
    [
      {
        corners: [
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
        ],
      },
      'corners',
    ],
    [{ mesh: { cols: 2, rows: 2, points: [[0, 0]] } }, 'mesh.points'],
    [
      {
        corners: [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 1],
        ],
        mesh: {
          cols: 1,
          rows: 1,
          points: [
            [0, 0],
            [1, 0],
            [0, 1],
            [1, 1],
          ],
        },
      },
      'mesh',
    ],
    [{ slice: { x: 0.6, y: 0, w: 0.6, h: 1 } }, 'slice'],
    [{ blend: { left: 0.5, right: 0.6 } }, 'blend'],
    [{ blend: { left: 0.7 } }, 'left'],
    [
      {
        corners: [
          [0, 0],
          [5, 0],
          [1, 1],
          [0, 1],
        ],
      },
      'corners',
    ],
  ];
  for (const [map, field] of cases) {
    const r = await setMap(a.id, map);
    assert.is(r.status, 400, `${JSON.stringify(map)}: ${r.text}`);
    assert.ok(r.text.includes(field), `${JSON.stringify(map)} names ${field}: ${r.text}`);
  }
  assert.is((await setMap('nope', null)).status, 404);
  assert.is((await post(`/outputs/${a.id}/map`, { map: { warp: 1 } })).status, 400);
});

test('maps are kept across a restart and cleared with null', async () => {
  const corners = [
    [0.1, 0.1],
    [0.9, 0.1],
    [0.9, 0.9],
    [0.1, 0.9],
  ];
  assert.is((await setMap(a.id, { corners, blend: { right: 0.1 } })).status, 200);
  await s.stop();
  await start();
  const kept = (await outputs()).find((o) => o.id === a.id)!;
  assert.equal(kept.map, { corners, blend: { right: 0.1 } });
  const r = await setMap(a.id, null);
  assert.is(r.status, 200, r.text);
  assert.is(r.json().current.map, null);
});

test.run();
