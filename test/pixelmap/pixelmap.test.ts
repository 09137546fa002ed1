// Pixel mapping end to end over HTTP, against an Art-Net and an sACN receiver on loopback: a program split red |
// light green | dark blue lands on fixtures placed on each third in GRB, RGBW and gamma 2.2; a strip continues over
// two universes; blackout sends zeros and the dimmer at 0.5 halves; the test mode lights white; the patch and
// /status are reported; bad fixtures are 400s naming the field and 127.0.0.2 never receives; the fixtures survive a
// restart; the 513th fixture is refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';
import { Receiver, until } from './receivers.js';
import { THIRDS, third, W } from './program.js';

let s: TestServer;
let dir: string;
let artnet: Receiver;
let sacn: Receiver;
let outside: Receiver;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });
const get = async (p: string) => (await req('GET', api(p))).json();

async function start(): Promise<void> {
  s = await startServer({
    dataDir: dir,
    config: {
      render: { width: W, height: 90, fps: 30 },
      sources: { dirs: [join(dir, 'gens')] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
      pixelmap: { enabled: true, destinations: ['127.0.0.1'], artnetPort: artnet.port, sacnPort: sacn.port, rateHz: 20, keepAliveMs: 300 },
    },
  });
  const r = await post('/sources/select', { id: 'source:thirds' });
  assert.is(r.status, 200, r.text);
}

const line = (x1: number, x2: number, y: number, pixels: number) => ({ kind: 'strip', x1, y1: y, x2, y2: y, pixels });
const LONG = line(0.01, 0.99, 0.9, 200);
const FIXTURES = [
  { name: 'Left', geometry: line(0.05, 0.3, 0.5, 3), destination: '127.0.0.1', colorOrder: 'GRB' },
  {
    name: 'Middle',
    geometry: { kind: 'matrix', x: 0.4, y: 0.4, w: 0.2, h: 0.2, cols: 2, rows: 1, serpentine: false, start: 'top-left' },
    destination: '127.0.0.1',
    protocol: 'sacn',
    colorOrder: 'RGBW',
  },
  { name: 'Right', geometry: line(0.7, 0.95, 0.5, 2), destination: '127.0.0.1', address: 10, gamma: 2.2 },
  { name: 'Long', geometry: LONG, destination: '127.0.0.1', universe: 2 },
];

const rep = (px: number[], n: number): number[] => Array.from({ length: n }, () => px).flat();
const near = (got: number[] | null, want: number[], tol: number) => got !== null && want.every((v, i) => Math.abs(got[i]! - v) <= tol);

/** Waits until the last packet of `universe` starts with `want` (within `tol`). */
async function lands(r: Receiver, universe: number, want: number[], tol = 0): Promise<void> {
  const ok = await until(() => near(r.last(universe), want, tol), 10000);
  assert.ok(ok, `universe ${universe}: ${r.last(universe)?.slice(0, want.length)} want ${want}`);
}

/** The long strip's pixels, each the colour of the output column under it (decided at its centre, as ISF draws). */
const longPixels = (from: number, to: number): number[] =>
  Array.from({ length: to - from }, (_, k) => {
    const u = LONG.x1 + ((LONG.x2 - LONG.x1) / (LONG.pixels - 1)) * (from + k);
    return third((Math.floor(u * W) + 0.5) / W);
  }).flat();

test.before(async () => {
  dir = await tempDir();
  await mkdir(join(dir, 'gens'));
  await writeFile(join(dir, 'gens', 'thirds.fs'), THIRDS);
  artnet = await Receiver.open('artnet', '127.0.0.1');
  sacn = await Receiver.open('sacn', '127.0.0.1');
  // The Art-Net port on another loopback address: a fixture sent there would land here.
  outside = await Receiver.open('artnet', '127.0.0.2', artnet.port);
  await start();
});

test.after(async () => {
  await s?.cleanup();
  for (const r of [artnet, sacn, outside]) r?.close();
  await rm(dir, { recursive: true, force: true });
});

test('fixtures on each third carry their colours in GRB, RGBW and gamma 2.2, over two universes', async () => {
  for (const f of FIXTURES) {
    const r = await post('/pixelmap/fixtures/add', f);
    assert.is(r.status, 200, r.text);
  }
  // Red in GRB; dark blue (128) through gamma 2.2 is 56.
  await lands(artnet, 0, [...rep([0, 255, 0], 3), ...rep([0, 0, 56], 2)]);
  // Light green (100, 255, 100) with white taken out: W 100, G 155.
  await lands(sacn, 1, rep([0, 155, 0, 100], 2));
  await lands(artnet, 2, longPixels(0, 170));
  await lands(artnet, 3, longPixels(170, 200));
  const pm = await get('/pixelmap');
  assert.equal(
    pm.fixtures.map((f: any) => f.id),
    ['left', 'middle', 'right', 'long'],
  );
  const u0 = pm.patch.find((u: any) => u.protocol === 'artnet' && u.universe === 0);
  assert.equal(
    u0.runs.map((r: any) => [r.fixture, r.from, r.to]),
    [
      ['left', 1, 9],
      ['right', 10, 15],
    ],
  );
  const u3 = pm.patch.find((u: any) => u.universe === 3);
  assert.equal(u3.runs, [{ fixture: 'long', firstPixel: 170, pixels: 30, from: 1, to: 90 }]);
});

test('blackout sends zeros; the dimmer at 0.5 halves; edit and the white test apply', async () => {
  assert.is((await post('/global/blackout', { enabled: true })).status, 200);
  await lands(artnet, 0, rep([0], 15));
  await lands(sacn, 1, rep([0], 8));
  assert.is((await post('/global/blackout', { enabled: false })).status, 200);
  assert.is((await post('/global/dimmer', { value: 0.5 })).status, 200);
  // 64 through gamma 2.2 is 12.
  await lands(artnet, 0, [...rep([0, 128, 0], 3), ...rep([0, 0, 12], 2)], 2);
  await lands(sacn, 1, rep([0, 78, 0, 50], 2), 2);
  assert.is((await post('/global/dimmer', { value: 1 })).status, 200);
  let r = await post('/pixelmap/fixtures/edit', { id: 'Left', colorOrder: 'RGB' });
  assert.is(r.status, 200, r.text);
  await lands(artnet, 0, rep([255, 0, 0], 3));
  r = await post('/pixelmap/test', { mode: 'white' });
  assert.equal(r.json(), { test: 'white' });
  await lands(sacn, 1, rep([0, 0, 0, 255], 2));
  await lands(artnet, 0, rep([255], 15));
  assert.is((await post('/pixelmap/test', { mode: 'off' })).status, 200);
  await lands(artnet, 0, rep([255, 0, 0], 3));
});

test('bad fixtures are 400s naming the field; 127.0.0.2 never receives', async () => {
  const strip = line(0.1, 0.2, 0.2, 4);
  const refused = async (body: object, field: string) => {
    const r = await post('/pixelmap/fixtures/add', { name: 'Bad', geometry: strip, destination: '127.0.0.1', ...body });
    assert.is(r.status, 400, r.text);
    assert.ok(r.json().message.startsWith(field), `${field}: ${r.json().message}`);
  };
  await refused({ destination: '127.0.0.2' }, 'destination "127.0.0.2" is not one of config pixelmap.destinations');
  await refused({ address: 7 }, 'address: fixture ("bad") channels 7-18 overlap fixtures[0] ("left")');
  await refused({ universe: 40000 }, "universe 40000 is outside Art-Net's 0 to 32767");
  await refused({ protocol: 'sacn', universe: 0 }, 'universe 0 is outside sACN');
  await refused({ colorOrder: 'RGBA' }, 'body.colorOrder');
  const r = await post('/pixelmap/fixtures/edit', { id: 'right', address: 5 });
  assert.is(r.status, 400, r.text);
  assert.match(r.json().message, /^address: .*overlap fixtures\[0\]/);
  assert.is((await get('/pixelmap')).fixtures.length, 4, 'nothing changed');
  assert.is(outside.got.length, 0, 'a packet went to 127.0.0.2');
});

test('GET /status shows the packet rate', async () => {
  await waitUntil(async () => (await get('/status')).pixelmap.packetsPerSecond > 0, 10000);
  const st = (await get('/status')).pixelmap;
  assert.equal([st.enabled, st.fixtures, st.pixels, st.universes, st.running], [true, 4, 207, 4, true]);
});

test('the fixtures survive a restart and are sent again, by the same sACN source', async () => {
  const before = (await get('/pixelmap')).fixtures;
  // The sACN root layer's CID (bytes 22-37) names the source.
  const cid = () => sacn.data(1).at(-1)?.raw.subarray(22, 38).toString('hex');
  assert.ok(await until(() => cid() !== undefined, 10000), 'an sACN packet');
  const cidBefore = cid();
  await s.stop();
  artnet.clear();
  sacn.clear();
  await start();
  assert.equal((await get('/pixelmap')).fixtures, before);
  await lands(artnet, 0, rep([255, 0, 0], 3));
  assert.ok(await until(() => cid() !== undefined, 10000), 'an sACN packet after the restart');
  assert.is(cid(), cidBefore);
});

test('a patch holds 512 fixtures: the next one is refused naming fixtures; removing one makes room', async () => {
  const one = (i: number) => ({
    name: `P${i}`,
    geometry: { kind: 'pixel', x: 0.5, y: 0.5 },
    destination: '127.0.0.1',
    universe: 10 + Math.floor(i / 170),
    address: 1 + (i % 170) * 3,
  });
  for (let i = 0; i < 508; i += 32) {
    const batch = await Promise.all(Array.from({ length: Math.min(32, 508 - i) }, (_, k) => post('/pixelmap/fixtures/add', one(i + k))));
    for (const r of batch) assert.is(r.status, 200, r.text);
  }
  let r = await post('/pixelmap/fixtures/add', one(508));
  assert.is(r.status, 400, r.text);
  assert.is(r.json().message, 'fixtures: 513 fixtures are more than the 512 a patch may hold');
  assert.is((await post('/pixelmap/fixtures/remove', { id: 'long' })).status, 200);
  r = await post('/pixelmap/fixtures/add', one(508));
  assert.is(r.status, 200, r.text);
  assert.is((await get('/status')).pixelmap.fixtures, 512);
});

test.run();
