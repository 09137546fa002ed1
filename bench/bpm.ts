// BPM error and time to lock of the beat tracker over generated patterns (clicks, a kick with off-beat hats, a
// syncopated break) at tempos across the dance range, each with a range that holds it; plus the tracker's CPU.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT } from '../test/helpers/server.js';
import {
  HOP,
  HOPS_PER_SECOND,
  lockTime,
  median,
  pattern,
  render,
  SAMPLE_RATE,
  type Estimate,
  type PatternKind,
} from '../test/helpers/beat-patterns.js';
import { Analyser } from '../workers/audio/analysis.js';
import { BeatTracker } from '../workers/audio/beat-tracker.js';

const TEMPOS = [90, 100, 110, 120, 128, 140, 150, 160, 174];
const KINDS: PatternKind[] = ['clicks', 'kick-hats', 'break'];
const SECONDS = 30;
/** Errors are measured on the estimates after the lock deadline. */
const SETTLED_S = 10;

/** A range that holds the tempo and not its octaves: the default up to 140, a faster one above. */
const rangeFor = (bpm: number): { min: number; max: number } => (bpm <= 140 ? { min: 75, max: 150 } : { min: 100, max: 200 });

interface Row {
  kind: PatternKind;
  bpm: number;
  range: string;
  medianError: number;
  maxError: number;
  lockS: number | null;
  confidence: number;
}

let analysisMs = 0;
let trackerMs = 0;
let hops = 0;

function run(pcm: Float32Array, range: { min: number; max: number }): Estimate[] {
  const analyser = new Analyser(SAMPLE_RATE, HOP);
  const tracker = new BeatTracker(HOPS_PER_SECOND);
  tracker.setRange(range.min, range.max);
  const out: Estimate[] = [];
  for (let i = 0; (i + 1) * HOP <= pcm.length; i++) {
    const t0 = performance.now();
    const r = analyser.analyse(pcm.subarray(i * HOP, (i + 1) * HOP), null);
    const t1 = performance.now();
    const at = ((i + 1) * HOP) / SAMPLE_RATE;
    const e = tracker.push(r.strength, at * 1000) ? tracker.estimate() : null;
    trackerMs += performance.now() - t1;
    analysisMs += t1 - t0;
    hops++;
    if (e) out.push({ ...e, at });
  }
  return out;
}

const rows: Row[] = [];
for (const kind of KINDS) {
  for (const bpm of TEMPOS) {
    const range = rangeFor(bpm);
    const est = run(await render(pattern(kind, bpm), SECONDS), range);
    const settled = est.filter((e) => e.at >= SETTLED_S);
    const errors = settled.map((e) => Math.abs(e.bpm - bpm));
    rows.push({
      kind,
      bpm,
      range: `${range.min}-${range.max}`,
      medianError: median(errors),
      maxError: Math.max(...errors),
      lockS: lockTime(est, bpm),
      confidence: median(settled.map((e) => e.confidence)),
    });
    process.stdout.write(`${kind} ${bpm}: median ${median(errors).toFixed(3)} BPM\n`);
  }
}

const f = (x: number, d = 2): string => x.toFixed(d);
const allMedian = median(rows.map((r) => r.medianError));
const worstMedian = Math.max(...rows.map((r) => r.medianError));
const worstMax = Math.max(...rows.map((r) => r.maxError));
const locks = rows.map((r) => r.lockS ?? Number.POSITIVE_INFINITY);
const audioS = (hops * HOP) / SAMPLE_RATE;
const md = [
  '| pattern | BPM | range | median error (BPM) | max error (BPM) | lock (s) | confidence |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.kind} | ${r.bpm} | ${r.range} | ${f(r.medianError, 3)} | ${f(r.maxError, 3)} | ${r.lockS === null ? 'never' : f(r.lockS, 1)} | ${f(r.confidence)} |`,
  ),
  '',
  `Over all ${rows.length} runs: median error ${f(allMedian, 3)} BPM (worst run's median ${f(worstMedian, 3)}, worst single estimate ${f(worstMax, 3)}); lock within ±1 BPM after ${f(median(locks), 1)} s (median), ${Number.isFinite(Math.max(...locks)) ? `${f(Math.max(...locks), 1)} s` : 'never'} at worst. Errors are those of the estimates after ${SETTLED_S} s of each ${SECONDS} s pattern; the lock is the time from which every estimate stays within ±1 BPM (the first estimate comes after 2 s of input).`,
  `CPU per input: analysis ${f((analysisMs / hops) * 1000, 1)} µs and tracker ${f((trackerMs / hops) * 1000, 1)} µs per hop, ${f(((analysisMs + trackerMs) / (audioS * 1000)) * 100, 2)} % of one core. Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, no GPU, Node ${process.version}; PCM rendered by ffmpeg aevalsrc, analysed offline faster than real time.`,
].join('\n');
await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
await writeFile(join(ROOT, 'bench', 'results', 'bpm.md'), `${md}\n`);
await writeFile(join(ROOT, 'bench', 'results', 'bpm.json'), `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`);
process.stdout.write(`${md}\n`);
