// From a sample to channel bytes (src/pixelmap/colour.ts): every colour order, white extraction, the gamma table,
// brightness, and the two test patterns.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  EACH_STEP_MS,
  gammaLut,
  levelLut,
  orderIndex,
  pixelEncoder,
  testLevel,
  type ColourOptions,
} from '../../src/shared/pixelmap/colour.js';

const encode = (o: Partial<ColourOptions>, rgb: [number, number, number]): number[] => {
  const e = pixelEncoder({ colorOrder: 'RGB', gamma: 1, brightness: 1, ...o });
  const out = new Uint8Array(6);
  e.encode(Uint8Array.from([9, 9, 9, 9, ...rgb, 255]), 4, out, 1);
  assert.is(out[0], 0, 'nothing before the pixel');
  return [...out.subarray(1, 1 + e.channels)];
};

test('each colour order puts r, g and b on its own channels', () => {
  const want: Record<string, number[]> = {
    RGB: [10, 20, 30],
    RBG: [10, 30, 20],
    GRB: [20, 10, 30],
    GBR: [20, 30, 10],
    BRG: [30, 10, 20],
    BGR: [30, 20, 10],
  };
  for (const [order, bytes] of Object.entries(want))
    assert.equal(encode({ colorOrder: order as ColourOptions['colorOrder'] }, [10, 20, 30]), bytes, order);
  assert.equal(orderIndex('GRBW'), [1, 0, 2, 3]);
});

test('RGBW takes the grey part into white: w = min(r, g, b), taken off r, g and b', () => {
  assert.equal(encode({ colorOrder: 'RGBW' }, [200, 150, 100]), [100, 50, 0, 100]);
  assert.equal(encode({ colorOrder: 'GRBW' }, [200, 150, 100]), [50, 100, 0, 100]);
  assert.equal(encode({ colorOrder: 'RGBW' }, [255, 255, 255]), [0, 0, 0, 255], 'white is the white LED alone');
  assert.equal(encode({ colorOrder: 'RGBW' }, [255, 0, 0]), [255, 0, 0, 0]);
  // Extraction comes before gamma: the white channel gets the curve of its own level.
  assert.equal(encode({ colorOrder: 'RGBW', gamma: 2.2 }, [255, 128, 128]), [gammaLut(2.2)[127]!, 0, 0, 56]);
});

test('gamma 2.2: the table is round(255 · (x / 255)^2.2), one per value, cached', () => {
  const lut = gammaLut(2.2);
  assert.equal([lut[0], lut[1], lut[64], lut[128], lut[192], lut[255]], [0, 0, 12, 56, 137, 255]);
  for (let x = 0; x < 256; x++) assert.is(lut[x], Math.round(255 * (x / 255) ** 2.2));
  assert.ok(gammaLut(2.2) === lut, 'the same table again');
  assert.equal(encode({ gamma: 2.2, colorOrder: 'GRB' }, [128, 64, 255]), [12, 56, 255]);
  assert.equal([...gammaLut(1)].slice(0, 4), [0, 1, 2, 3], 'gamma 1 is the identity');
});

test('brightness scales the output after gamma', () => {
  assert.equal(encode({ brightness: 0.5 }, [200, 255, 1]), [100, 128, 1]);
  assert.equal(encode({ brightness: 0 }, [255, 255, 255]), [0, 0, 0]);
  assert.is(levelLut(2.2, 0.5)[128], Math.round(127.5 * (128 / 255) ** 2.2));
  assert.equal(encode({ brightness: 0.5, gamma: 2.2, colorOrder: 'RGBW' }, [255, 255, 255]), [0, 0, 0, 128]);
});

test("test patterns: 'white' lights every fixture, 'each' one at a time, 'off' uses the samples", () => {
  assert.is(testLevel('off', 0, 3, 0), null);
  assert.equal(
    [0, 1, 2].map((i) => testLevel('white', i, 3, 12345)),
    [255, 255, 255],
  );
  const lit = (now: number) => [0, 1, 2].map((i) => testLevel('each', i, 3, now));
  assert.equal(lit(0), [255, 0, 0]);
  assert.equal(lit(EACH_STEP_MS * 1.5), [0, 255, 0]);
  assert.equal(lit(EACH_STEP_MS * 5), [0, 0, 255]);
  assert.equal(lit(EACH_STEP_MS * 6), [255, 0, 0], 'and round again');
});

test.run();
