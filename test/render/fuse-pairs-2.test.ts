// Every ordered pair of fusable built-in effects, fused against unfused on headless-gl (part 2 of 2: the pairs
// whose first effect is in the second half, so each file stays short with a cold shader cache).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { analyze } from '../../workers/render/fuse/analyze.js';
import { compare, fusable, randomInputs, releaseAll, reseed } from '../helpers/fuse-compare.js';

reseed(20975);

test('ordered pairs (first effect in the second half of the fusable built-ins): fused equals unfused within 2/255', () => {
  const t0 = performance.now();
  let fusedPairs = 0;
  const firsts = fusable.slice(Math.ceil(fusable.length / 2));
  for (const a of firsts) {
    for (const b of fusable) {
      const runs = compare([
        { desc: a, inputs: randomInputs(a) },
        { desc: b, inputs: randomInputs(b) },
      ]);
      if (runs.length === 1) fusedPairs++;
    }
  }
  const pixelReads = fusable.filter((d) => (analyze(d) as { read: string }).read === 'pixel').length;
  assert.is(fusedPairs, firsts.length * pixelReads, 'every pair ending in a pixel-read effect is drawn fused');
  process.stdout.write(`pairs: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
});

test.after(() => releaseAll());

test.run();
