// The show soak: the show benchmark's load for 10 minutes at 1280×720 with render.scale "auto"; vjd's RSS after the
// warm-up minute against its level at the end and its peak (VJD_BENCH_SOAK_SECONDS sets the length).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runShow, type ShowRow } from './show.js';

const SECONDS = Number(process.env.VJD_BENCH_SOAK_SECONDS ?? 600);
const WARM_UP_S = 60;

export interface SoakRow {
  seconds: number;
  rssAfterWarmUp: number;
  rssEnd: number;
  rssMax: number;
  /** (end − after warm-up) ÷ after warm-up, in %. */
  growthPct: number;
  show: ShowRow;
}

export async function showSoak(): Promise<SoakRow> {
  const show = await runShow({ label: 'soak', width: 1280, height: 720, scale: 'auto', seconds: SECONDS });
  const xs = show.rssSamples;
  // The level at a point is the median of the 10 samples around it (one sample can catch a GC just before it runs).
  const level = (from: number): number => {
    const w = [...xs.slice(Math.max(0, from), Math.max(0, from) + 10)].sort((a, b) => a - b);
    return w[Math.floor(w.length / 2)]!;
  };
  const rssAfterWarmUp = level(WARM_UP_S - 5);
  const rssEnd = level(xs.length - 10);
  return {
    seconds: SECONDS,
    rssAfterWarmUp,
    rssEnd,
    rssMax: Math.max(...xs),
    growthPct: Math.round(((rssEnd - rssAfterWarmUp) / rssAfterWarmUp) * 1000) / 10,
    show,
  };
}

export function soakTable(r: SoakRow): string {
  const s = r.show;
  return [
    `${r.seconds} s of the show at 1280×720, render.scale "auto" (RSS of the vjd process, medians of 10 one-second samples):`,
    '',
    '| RSS after 1 min | RSS at the end | growth | peak | fps p50 / min | recording ÷ wall | thumb poll p99 | load |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${r.rssAfterWarmUp} MiB | ${r.rssEnd} MiB | ${r.growthPct} % | ${r.rssMax} MiB | ${s.fpsP50} / ${s.fpsMin} | ${s.recordingRatio.toFixed(3)} | ${s.thumbP99} ms | ${s.load} |`,
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const row = await showSoak();
  const table = soakTable(row);
  const out = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'show-soak.md'), `${table}\n`);
  await writeFile(join(out, 'show-soak.json'), `${JSON.stringify({ date: new Date().toISOString(), row }, null, 2)}\n`);
  process.stdout.write(`${table}\n`);
}
