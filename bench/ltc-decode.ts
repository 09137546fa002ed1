// Micro bench (tinybench) of the audio worker's LTC decoder: one second of 48 kHz, 25 fps LTC pushed in 1024-sample
// blocks through one reused buffer, as the worker feeds it; printed as ms per audio second and % of one core.
import { cpus } from 'node:os';
import { Bench } from 'tinybench';
import { ltcSamples } from '../test/helpers/ltc-signal.js';
import { LtcDecoder } from '../workers/audio/ltc-decoder.js';

const SR = 48_000;
const BLOCK = 1024;
// 25 frames of 1920 samples (plus lead-in) fill the second; each run starts a second later on the same decoder.
const second = ltcSamples({ start: { hours: 1, minutes: 0, seconds: 0, frames: 0 }, rate: 25, frames: 25, sampleRate: SR }).subarray(0, SR);
const buf = new Float32Array(BLOCK);
const decoder = new LtcDecoder(SR);
let clockMs = 0;
let runs = 0;
let frames = 0;

const bench = new Bench({ time: 1000, warmupTime: 200 });
bench.add('LtcDecoder.push: 1 s of 48 kHz 25 fps LTC, 1024-sample blocks', () => {
  for (let i = 0; i < second.length; i += BLOCK) {
    const n = Math.min(BLOCK, second.length - i);
    buf.set(second.subarray(i, i + n));
    clockMs += (n * 1000) / SR;
    frames += decoder.push(buf.subarray(0, n), clockMs).length;
  }
  runs++;
});

await bench.run();
const r = bench.tasks[0]?.result as unknown as { latency?: { p50?: number; mean?: number } } | undefined;
const median = r?.latency?.p50 ?? Number.NaN;
process.stdout.write(
  [
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. tinybench, 1 s per task.`,
    `LTC decode, 48 kHz 25 fps: ${median.toFixed(3)} ms per audio second (median; mean ${(r?.latency?.mean ?? Number.NaN).toFixed(3)} ms) = ${(median / 10).toFixed(3)} % of one core`,
    `frames decoded per audio second: ${(frames / Math.max(1, runs)).toFixed(1)} (25 expected)`,
    '',
  ].join('\n'),
);
