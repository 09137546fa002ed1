// The pixel-out sender worker through its client, against an Art-Net and an sACN receiver on loopback: a program
// split red | light green | dark blue lands on the fixtures of each third in their colour orders (GRB, RGBW, gamma
// 2.2), a patch continues over two universes, an unchanged program is only kept alive, a moving one is sent at
// the rate, zeros go out as zeros, sync packets follow the data, a crash is recovered, and 127.0.0.2 (not an
// allowed destination) receives nothing. Rates are checked loosely: the box is shared.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Logger } from '../../src/log.js';
import { samplePoints, totalPixels } from '../../src/shared/pixelmap/geometry.js';
import { createPixelSamples, PixelSamplesWriter } from '../../src/shared/pixel-samples.js';
import type { PixelOutSettings } from '../../src/shared/protocol/pixelout.js';
import { PixelOutClient } from '../../src/workers/pixelout-client.js';
import { matrix, pixel, strip } from './fixtures.js';
import { Receiver, sleep, until } from './receivers.js';

const fixtures = [
  strip('left', { x1: 0.05, y1: 0.5, x2: 0.3, y2: 0.5, pixels: 3 }, { colorOrder: 'GRB' }),
  matrix('middle', { x: 0.4, y: 0.4, w: 0.2, h: 0.2, cols: 2, rows: 1 }, { protocol: 'sacn', universe: 1, colorOrder: 'RGBW' }),
  strip('right', { x1: 0.7, y1: 0.5, x2: 0.95, y2: 0.5, pixels: 2 }, { address: 10, gamma: 2.2 }),
  strip('long', { x1: 0.005, y1: 0.9, x2: 0.995, y2: 0.9, pixels: 200 }, { universe: 2 }),
  pixel('outside', 0.5, 0.5, { destination: '127.0.0.2' }),
];
const COUNT = totalPixels(fixtures);
const points = samplePoints(fixtures);
const third = (u: number): [number, number, number] => (u < 1 / 3 ? [255, 0, 0] : u < 2 / 3 ? [100, 255, 100] : [0, 0, 128]);

const samples = createPixelSamples(256);
const writer = new PixelSamplesWriter(samples);
let frame = 0;
/** Writes one frame the way the render stage would: each pixel the program's colour at its point, times `level`. */
function render(level = 1, count = COUNT): void {
  const rgba = new Uint8Array(count * 4);
  for (let i = 0; i < count; i++) {
    const [r, g, b] = third(points[i * 4] ?? 0);
    rgba.set([Math.round(r * level), Math.round(g * level), Math.round(b * level), 255], i * 4);
  }
  writer.write(rgba, count, ++frame);
}

const lines: string[] = [];
const quiet = { info: () => {}, warn: (_: unknown, m: string) => lines.push(m), error: (_: unknown, m: string) => lines.push(m) };
let artnet: Receiver;
let outside: Receiver;
let sacn: Receiver;
let client: PixelOutClient;
const settings = (o: Partial<PixelOutSettings> = {}): PixelOutSettings => ({
  fixtures,
  samples,
  rateHz: 20,
  keepAliveMs: 400,
  sync: false,
  test: 'off',
  ...o,
});

test.before(async () => {
  artnet = await Receiver.open('artnet', '127.0.0.1');
  // The same port on another loopback address: were the sender to use the refused destination, it would land here.
  outside = await Receiver.open('artnet', '127.0.0.2', artnet.port);
  sacn = await Receiver.open('sacn', '127.0.0.1');
  const opts = { destinations: ['127.0.0.1'], artnetPort: artnet.port, sacnPort: sacn.port, statsMs: 250 };
  client = new PixelOutClient(opts, quiet as unknown as Logger);
});

test.after(async () => {
  await client.stop();
  for (const r of [artnet, outside, sacn]) r.close();
});

test('each third in its fixture colour order: GRB, RGBW with white extracted, gamma 2.2; two universes', async () => {
  render();
  client.configure(settings());
  const all = () => [0, 2, 3].every((u) => artnet.last(u)) && sacn.last(1) !== null;
  assert.ok(await until(all), 'every universe arrived');
  // left (red) GRB at 1-9, right (dark blue, gamma 2.2: 128 → 56) RGB at 10-15, padded to an even length.
  assert.equal(artnet.last(0), [0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 0, 56, 0, 0, 56, 0]);
  assert.equal(sacn.last(1), [0, 155, 0, 100, 0, 155, 0, 100], 'light green: white 100, green 155 over it');
  // The long strip: 170 pixels in universe 2, the other 30 from channel 1 of universe 3.
  const u2 = artnet.last(2)!;
  const u3 = artnet.last(3)!;
  assert.is(u2.length, 510);
  assert.is(u3.length, 90);
  const want = Array.from({ length: 200 }, (_, i) => third(0.005 + (i * 0.99) / 199)).flat();
  assert.equal([...u2, ...u3], want);
  assert.equal(u2.slice(0, 3), [255, 0, 0]);
  assert.equal(u3.slice(87), [0, 0, 128]);
  await sleep(300);
  assert.match(client.status.lastError ?? '', /"outside": destination "127.0.0.2" is not allowed/);
});

test('an unchanged program is only kept alive; a moving one is sent at the rate', async () => {
  artnet.clear();
  await sleep(1200);
  const kept = artnet.data(0);
  assert.ok(kept.length >= 2 && kept.length <= 6, `keep-alive every 400 ms: ${kept.length} in 1.2 s`);
  assert.ok(
    kept.every((k) => JSON.stringify(k.slots) === JSON.stringify(kept[0]!.slots)),
    'the same bytes',
  );
  assert.ok(
    kept.every((k, i) => i === 0 || k.raw[12] === (kept[i - 1]!.raw[12]! % 255) + 1),
    'the sequence counts on',
  );
  let level = 0;
  const moving = setInterval(() => render((level = (level + 0.013) % 1)), 5);
  await sleep(200);
  artnet.clear();
  await sleep(1000);
  clearInterval(moving);
  const sent = artnet.data(0);
  assert.ok(sent.length >= 10 && sent.length <= 26, `20 Hz: ${sent.length} packets in 1 s`);
  assert.ok(new Set(sent.map((s) => s.slots![1])).size >= 5, 'the values change');
  assert.ok(client.status.packetsPerSecond > 0, `stats: ${JSON.stringify(client.status)}`);
  assert.ok(client.status.framesSent > 10);
});

test('samples of another patch are ignored; zeros go out as zeros', async () => {
  render(1);
  assert.ok(await until(() => artnet.last(0)?.[1] === 255));
  render(0.5, 5);
  await sleep(300);
  assert.is(artnet.last(0)![1], 255, 'a block of 5 samples is not this patch');
  render(0);
  assert.ok(await until(() => artnet.last(0)!.every((x) => x === 0) && sacn.last(1)!.every((x) => x === 0)), 'blackout');
  assert.ok(await until(() => artnet.last(3)?.every((x) => x === 0) === true));
});

test('sync: ArtSync and E1.31 universe sync after the data; sACN data names its sync universe', async () => {
  render();
  client.configure(settings({ sync: true }));
  const artSync = () => artnet.got.some((g) => g.raw.length === 14 && g.raw.readUInt16LE(8) === 0x5200);
  const sacnSync = () => sacn.got.some((g) => g.raw.length === 49 && g.raw.readUInt32BE(18) === 8);
  assert.ok(await until(() => artSync() && sacnSync()), 'both sync packets');
  const sync = sacn.got.filter((g) => g.raw.length === 49).pop()!;
  assert.is(sync.raw.readUInt16BE(45), 1, 'synchronization address: the lowest sACN universe');
  assert.is(sacn.data(1).pop()!.raw.readUInt16BE(109), 1);
  const iData = artnet.got.findIndex((g) => g.universe === 0);
  assert.ok(
    artnet.got.slice(iData).some((g) => g.raw.length === 14),
    'ArtSync follows ArtDmx',
  );
});

test("test 'white' lights every pixel, the RGBW one on its white LED", async () => {
  sacn.clear();
  client.configure(settings({ test: 'white', rateHz: 40 }));
  assert.ok(await until(() => sacn.last(1)?.[3] === 255));
  assert.equal(sacn.last(1), [0, 0, 0, 255, 0, 0, 0, 255]);
  assert.ok(await until(() => artnet.last(0)?.[14] === 255));
  assert.equal(artnet.last(0), [255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0]);
});

test('fixtures taken out of the patch go dark: zeros on Art-Net, a terminated zero packet on sACN', async () => {
  client.configure(settings());
  // Packets of this patch, not of the test before: a universe never sent has nothing to darken.
  artnet.clear();
  sacn.clear();
  render(1);
  assert.ok(await until(() => artnet.last(0)?.[1] === 255 && sacn.last(1)?.some((x) => x > 0) === true), 'lit');
  artnet.clear();
  sacn.clear();
  // 'right' leaves universe 0 (which keeps 'left'); 'middle' takes its sACN universe with it.
  const kept = fixtures.filter((f) => f.id !== 'right' && f.id !== 'middle');
  client.configure(settings({ fixtures: kept }));
  const at = samplePoints(kept);
  const n = totalPixels(kept);
  const rgba = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) rgba.set([...third(at[i * 4]!), 255], i * 4);
  writer.write(rgba, n, ++frame);
  const ended = () => sacn.data(1).filter((g) => (g.raw[112]! & 0x40) !== 0);
  assert.ok(await until(() => ended().length >= 1), 'sACN universe 1 terminated');
  assert.ok(
    ended().every((g) => g.slots!.every((x) => x === 0)),
    'with zeros',
  );
  assert.ok(await until(() => artnet.data(0).length > 0), 'universe 0 still sent');
  const last = artnet.data(0).at(-1)!.slots!;
  assert.is(last[1], 255, "'left' still lit");
  assert.ok(last.length >= 15 && last.slice(9, 15).every((x) => x === 0), `the removed fixture's channels are zero: ${last.slice(0, 16)}`);
  client.configure(settings());
  render(1);
});

test('a crashed worker is restarted with the same settings; a stop ends the sACN stream', async () => {
  client.configure(settings({ keepAliveMs: 200 }));
  await sleep(300);
  assert.ok(client.killWorker());
  await sleep(100);
  artnet.clear();
  assert.ok(await until(() => artnet.data(0).length > 0), 'sending again');
  assert.is(client.status.restarts, 1);
  sacn.clear();
  await client.stop();
  assert.ok(await until(() => sacn.data(1).some((g) => (g.raw[112]! & 0x40) !== 0), 1000), 'a terminated packet');
  assert.is(outside.got.length, 0, 'nothing ever reached the destination not allowed');
  assert.ok(lines.some((l) => /pixel-out worker exited unexpectedly/.test(l)));
});

test.run();
