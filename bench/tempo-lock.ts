// Time to lock after a change of track: drum tracks at 90, 128 and 174 BPM switched in sequence, fed offline
// through the analyser, beat tracker and tempo clock (bench/tempo-lock-lib.ts), for this build and for the tracker
// of an earlier commit (VJD_BENCH_BASE, default the commit before the faster lock) in the same run.
// Writes bench/results/tempo-lock.{md,json}.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { median } from '../test/helpers/beat-patterns.js';
import { ROOT } from '../test/helpers/server.js';
import { type ChangeMode, play, type Segment, type TrackerModules } from '../test/helpers/tempo-run.js';
import { CURRENT, modulesAt } from './tempo-lock-lib.js';

const BASE = process.env.VJD_BENCH_BASE ?? '2acf6f8';
const SECONDS = Number(process.env.VJD_BENCH_SECONDS ?? 20);
const ROUNDS = Number(process.env.VJD_BENCH_RUNS ?? 3);
/** Every ordered pair of the three tempos once per round. */
const ROUND = [90, 128, 174, 90, 174, 128];
const TEMPOS = [90, 128, 174];

interface Row {
  build: string;
  mode: ChangeMode;
  bpm: number;
  target: number;
  changes: number;
  lockP50: number | null;
  lockMax: number | null;
  confidentP50: number | null;
  offConfidence: number;
  lockedConfidence: number;
  meanError: number;
  sdError: number;
}

const sequence = Array.from({ length: ROUNDS }, () => ROUND).flat();
const p = (xs: Array<number | null>, f: (v: number[]) => number): number | null => (xs.some((x) => x === null) ? null : f(xs as number[]));

function rows(build: string, mode: ChangeMode, segs: Segment[]): Row[] {
  // The first track starts from nothing in both modes: only the changes count.
  const changes = segs.slice(1);
  return TEMPOS.map((bpm) => {
    const s = changes.filter((x) => x.bpm === bpm);
    const errors = s.flatMap((x) => x.lockedErrors);
    const mean = errors.reduce((a, b) => a + b, 0) / errors.length;
    const sd = Math.sqrt(errors.reduce((a, b) => a + (b - mean) ** 2, 0) / errors.length);
    return {
      build,
      mode,
      bpm,
      target: s[0]!.target,
      changes: s.length,
      lockP50: p(
        s.map((x) => x.lockS),
        median,
      ),
      lockMax: p(
        s.map((x) => x.lockS),
        (v) => Math.max(...v),
      ),
      confidentP50: p(
        s.map((x) => x.confidentS),
        median,
      ),
      offConfidence: median(s.map((x) => x.offConfidence)),
      lockedConfidence: median(s.map((x) => x.lockedConfidence)),
      meanError: mean,
      sdError: sd,
    };
  });
}

const builds: Array<[string, TrackerModules]> = [
  [`before (${BASE})`, await modulesAt(BASE)],
  ['this build', CURRENT],
];
const all: Row[] = [];
for (const mode of ['cut', 'select'] as const) {
  for (const [name, m] of builds) {
    const segs = play(m, sequence, SECONDS, mode);
    for (const [i, s] of segs.entries()) {
      process.stdout.write(
        `${name} ${mode} #${i} ${s.bpm}: lock ${s.lockS?.toFixed(2) ?? 'never'} s, confident ${s.confidentS?.toFixed(2) ?? 'never'} s, confidence while off ${s.offConfidence.toFixed(2)}\n`,
      );
    }
    all.push(...rows(name, mode, segs));
  }
}

const f = (x: number | null, d = 1): string => (x === null ? 'never' : x.toFixed(d));
const md = [
  '| change | build | track (BPM) | target (BPM) | changes | lock p50 (s) | lock max (s) | confident p50 (s) | confidence while off | confidence locked | locked error (BPM) |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
  ...all.map(
    (r) =>
      `| ${r.mode === 'cut' ? 'tempo change, one input' : 'input change'} | ${r.build} | ${r.bpm} | ${f(r.target, 0)} | ${r.changes} | ${f(r.lockP50)} | ${f(r.lockMax)} | ${f(r.confidentP50)} | ${f(r.offConfidence, 2)} | ${f(r.lockedConfidence, 2)} | ${r.meanError >= 0 ? '+' : ''}${f(r.meanError, 2)} ± ${f(r.sdError, 2)} |`,
  ),
  '',
  `Lock: seconds from the change until the clock's BPM (what GET /tempo answers) is within 1 BPM of the target and stays there until the next change; confident: until it is also at confidence 0.6 or more; confidence while off: the median confidence reported while the BPM was more than 1 BPM off, from a second after the change on; confidence locked: the median over the second half of each track; locked error: mean ± standard deviation of the clock's BPM minus the target over the second half of each ${SECONDS} s track. ${sequence.length} tracks (${sequence.join(' → ')}) in the range 80-180 (it holds all three tempos, and also 180 and 87, the double of 90 and the half of 174, which the tracker must not take). Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, no GPU, Node ${process.version}; offline, faster than real time.`,
].join('\n');
await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
await writeFile(join(ROOT, 'bench', 'results', 'tempo-lock.md'), `${md}\n`);
await writeFile(
  join(ROOT, 'bench', 'results', 'tempo-lock.json'),
  `${JSON.stringify({ date: new Date().toISOString(), base: BASE, seconds: SECONDS, rows: all }, null, 2)}\n`,
);
process.stdout.write(`${md}\n`);
