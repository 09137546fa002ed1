// The patch (src/pixelmap/patch.ts): whole pixels per universe, the continuation at the next universe from
// channel 1, and every refusal naming the field: ranges, destinations, overlaps, totals.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { patchOf, patchProblem } from '../../src/shared/pixelmap/patch.js';
import { matrix, pixel, strip } from './fixtures.js';

const ALLOWED = ['127.0.0.1', '10.0.0.7', 'broadcast', 'multicast'];
const line = (pixels: number) => ({ x1: 0, y1: 0.5, x2: 1, y2: 0.5, pixels });

test('a fixture that does not fit continues at the next universe from channel 1, whole pixels only', () => {
  const [rgb] = patchOf([strip('a', line(200), { universe: 3 })]);
  assert.equal(
    rgb!.map((s) => [s.universe, s.channel, s.firstPixel, s.pixels, s.channels]),
    [
      [3, 1, 0, 170, 3],
      [4, 1, 170, 30, 3],
    ],
  );
  const [rgbw] = patchOf([
    strip('w', line(130), { protocol: 'sacn', destination: 'multicast', universe: 1, address: 5, colorOrder: 'RGBW' }),
  ]);
  assert.equal(
    rgbw!.map((s) => [s.protocol, s.destination, s.universe, s.channel, s.firstPixel, s.pixels]),
    [
      ['sacn', 'multicast', 1, 5, 0, 127],
      ['sacn', 'multicast', 2, 1, 127, 3],
    ],
  );
  const [late] = patchOf([pixel('p', 0.5, 0.5, { address: 510 })]);
  assert.equal(
    late!.map((s) => [s.universe, s.channel]),
    [[0, 510]],
    'the last whole pixel of a universe',
  );
  assert.is(patchProblem([strip('a', line(200)), strip('b', line(10), { universe: 2 })], ALLOWED), null);
});

test('universes out of the protocol range, including where a continuation lands', () => {
  const cases: [Parameters<typeof strip>[2], number, string, RegExp][] = [
    [{ universe: 32768 }, 1, 'fixtures[0].universe', /32768 is outside Art-Net's 0 to 32767/],
    [{ protocol: 'sacn', universe: 0 }, 1, 'fixtures[0].universe', /0 is outside sACN's 1 to 63999/],
    [{ universe: 32767 }, 171, 'fixtures[0].universe', /continues to universe 32768, past Art-Net's last universe 32767/],
    [{ protocol: 'sacn', universe: 63999, colorOrder: 'RGBW' }, 129, 'fixtures[0].universe', /continues to universe 64000/],
    [{ address: 511 }, 1, 'fixtures[0].address', /511 leaves no room for one 3-channel pixel \(at most 510\)/],
    [{ address: 510, colorOrder: 'GRBW' }, 1, 'fixtures[0].address', /at most 509/],
  ];
  for (const [rest, pixels, field, words] of cases) {
    const p = patchProblem([strip('s', line(pixels), rest)], ALLOWED);
    assert.is(p?.field, field, JSON.stringify(rest));
    assert.match(p!.message, words);
  }
  assert.is(patchProblem([strip('s', line(170), { universe: 32767 })], ALLOWED), null, 'fits exactly in the last universe');
});

test('destinations: only the allowed ones, broadcast for Art-Net, multicast for sACN', () => {
  const cases: [Parameters<typeof strip>[2], RegExp][] = [
    [
      { destination: '10.0.0.8' },
      /"10.0.0.8" is not one of config pixelmap.destinations \("127.0.0.1", "10.0.0.7", "broadcast", "multicast"\)/,
    ],
    [{ protocol: 'sacn', universe: 1, destination: 'broadcast' }, /"broadcast" is for Art-Net/],
    [{ destination: 'multicast' }, /"multicast" is for sACN/],
  ];
  for (const [rest, words] of cases) {
    const p = patchProblem([pixel('ok', 0, 0, { universe: 9 }), pixel('p', 0.5, 0.5, rest)], ALLOWED);
    assert.is(p?.field, 'fixtures[1].destination');
    assert.match(p!.message, words);
  }
  assert.match(patchProblem([pixel('p', 0, 0)], [])!.message, /\(none\)/);
  assert.is(
    patchProblem(
      [pixel('p', 0, 0, { destination: 'broadcast' }), pixel('q', 0, 0, { protocol: 'sacn', universe: 1, destination: 'multicast' })],
      ALLOWED,
    ),
    null,
  );
});

test('overlapping channels on one protocol, destination and universe are refused, naming the later fixture', () => {
  const a = strip('a', line(10)); // channels 1-30
  const over = patchProblem([a, strip('b', line(10), { address: 28 })], ALLOWED);
  assert.is(over?.field, 'fixtures[1].address');
  assert.match(
    over!.message,
    /fixtures\[1\] \("b"\) channels 28-57 overlap fixtures\[0\] \("a"\) channels 1-30 in Art-Net universe 0 to 127.0.0.1/,
  );
  assert.is(patchProblem([a, strip('b', line(10), { address: 31 })], ALLOWED), null, 'adjacent is not overlapping');
  assert.is(patchProblem([a, strip('b', line(10), { destination: '10.0.0.7' })], ALLOWED), null, 'another destination');
  assert.is(
    patchProblem([a, strip('b', line(10), { protocol: 'sacn', universe: 1 }), strip('c', line(10), { universe: 1 })], ALLOWED),
    null,
  );
  // The later fixture reaches the earlier one through its continuation: its universe is what to change.
  const cont = patchProblem([pixel('p', 0, 0, { universe: 1, address: 40 }), strip('long', line(200))], ALLOWED);
  assert.is(cont?.field, 'fixtures[1].universe');
  assert.match(cont!.message, /channels 1-90 overlap fixtures\[0\] \("p"\) channels 40-42 in Art-Net universe 1/);
  const inside = patchProblem(
    [strip('big', line(100)), pixel('small', 0, 0, { address: 100 }), pixel('x', 0, 0, { address: 400 })],
    ALLOWED,
  );
  assert.is(inside?.field, 'fixtures[1].address', 'a run inside a longer one');
  assert.match(
    patchProblem([pixel('p', 0, 0), pixel('p', 0, 0, { address: 4 })], ALLOWED)!.message,
    /fixtures\[1\].id "p" is already used by fixtures\[0\]/,
  );
});

test('totals: 10 000 fixtures, too many pixels, too many universes', () => {
  const many = Array.from({ length: 10_000 }, (_, i) =>
    pixel(`p${i}`, 0, 0, { address: 1 + (i % 170) * 3, universe: Math.floor(i / 170) }),
  );
  const p = patchProblem(many, ALLOWED);
  assert.equal(p, { field: 'fixtures', message: '10000 fixtures are more than the 512 a patch may hold' });
  const big = patchProblem([matrix('m', { x: 0, y: 0, w: 1, h: 1, cols: 256, rows: 65 })], ALLOWED);
  assert.equal(big, { field: 'fixtures', message: '16640 pixels in all are more than the 16384 a patch may hold' });
  const spread = Array.from({ length: 65 }, (_, i) => pixel(`p${i}`, 0, 0, { universe: i }));
  assert.equal(patchProblem(spread, ALLOWED), { field: 'fixtures', message: 'the patch spans 65 universes, more than the 64 sent' });
  assert.is(patchProblem(spread.slice(0, 64), ALLOWED), null);
  assert.is(patchProblem(many.slice(0, 512), ALLOWED), null, '512 fixtures over 4 universes');
});

test.run();
