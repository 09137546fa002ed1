// Every ordered pair of fusable built-in effects, fused against unfused on headless-gl (part 2 of 2: the pairs
// whose first effect is in the second half, so each file stays short with a cold shader cache).
import { test } from 'uvu';
import { pairsTest, releaseAll } from '../helpers/fuse-compare.js';

test('ordered pairs (first effect in the second half of the fusable built-ins): fused equals unfused within 2/255', () =>
  pairsTest(2, 20975));

test.after(() => releaseAll());

test.run();
