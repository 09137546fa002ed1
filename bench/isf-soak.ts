// ISF soak: the same 20 effects added and removed for 200 rounds (VJD_ISF_SOAK_ROUNDS) on a running server, with
// the process RSS, the live GL object counts and the program cache read after each round. Flat after warm-up means
// no growth per add/remove. Writes bench/results/isf-soak.{md,json}.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, req, startServer, waitUntil, type TestServer } from '../test/helpers/server.js';

const ROUNDS = Number(process.env.VJD_ISF_SOAK_ROUNDS ?? 200);
const WARM_UP = Math.min(20, Math.floor(ROUNDS / 4));
const EFFECTS = [
  'invert',
  'hue_shift',
  'blur',
  'bloom',
  'trails',
  'feedback',
  'pixelate',
  'posterize',
  'mirror',
  'kaleidoscope',
  'rgb_split',
  'saturation',
  'scanlines',
  'sharpen',
  'solarize',
  'swirl',
  'threshold',
  'tile',
  'vignette',
  'wave_distort',
];
/** The community tier's ceiling: the 20 go in and out in batches of at most this many. */
const BATCH = 8;

interface Sample {
  round: number;
  rssMiB: number;
  textures: number;
  programs: number;
  framebuffers: number;
  cached: number;
}

async function rssMiB(pid: number): Promise<number> {
  const m = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

async function call(s: TestServer, method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> {
  const r = await req(method, `${s.base}/api/v1${path}`, { ...(body !== undefined ? { body } : {}), timeoutMs: 30000 });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r.json();
}

/** Render status once three readings in a row agree (spares refilled, fused programs compiled between frames). */
async function settled(s: TestServer): Promise<any> {
  let last = '';
  let same = 0;
  let value: any;
  await waitUntil(
    async () => {
      const r = (await call(s, 'GET', '/status')).render;
      value = r;
      const text = JSON.stringify([r.gl, r.programs]);
      same = text === last ? same + 1 : 0;
      last = text;
      return same >= 2;
    },
    60000,
    300,
  );
  return value;
}

async function main(): Promise<void> {
  const s = await startServer({ config: { render: { width: 640, height: 360, fps: 30 } } });
  const samples: Sample[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (let i = 0; i < EFFECTS.length; i += BATCH) {
        const batch = EFFECTS.slice(i, i + BATCH);
        for (const type of batch) await call(s, 'POST', '/effects/add', { type });
        for (let n = 0; n < batch.length; n++) await call(s, 'POST', '/effects/remove', { index: 1 });
      }
      const r = await settled(s);
      samples.push({
        round,
        rssMiB: await rssMiB(s.proc.pid!),
        textures: r.gl.textures,
        programs: r.gl.programs,
        framebuffers: r.gl.framebuffers,
        cached: r.programs.cached,
      });
      if (round % 10 === 0) process.stdout.write(`round ${round}: ${JSON.stringify(samples[samples.length - 1])}\n`);
    }
  } finally {
    await s.cleanup();
  }
  const warm = samples[WARM_UP - 1]!;
  const end = samples[samples.length - 1]!;
  const perRound = (end.rssMiB - warm.rssMiB) / Math.max(1, end.round - warm.round);
  const glFlat = samples
    .slice(WARM_UP - 1)
    .every((x) => x.textures === warm.textures && x.programs === warm.programs && x.framebuffers === warm.framebuffers);
  const shown = samples.filter((x) => x.round === 1 || x.round === WARM_UP || x.round % Math.max(1, Math.floor(ROUNDS / 5)) === 0);
  const md = [
    `| round | RSS (MiB) | GL textures | GL programs | GL framebuffers | cached programs |`,
    `|---|---|---|---|---|---|`,
    ...shown.map((x) => `| ${x.round} | ${x.rssMiB.toFixed(1)} | ${x.textures} | ${x.programs} | ${x.framebuffers} | ${x.cached} |`),
    '',
    `${ROUNDS} rounds of adding and removing the same ${EFFECTS.length} effects at 640×360: after ${WARM_UP} warm-up rounds RSS moved ` +
      `${perRound >= 0 ? '+' : ''}${(perRound * 1024).toFixed(0)} KiB per round; GL object counts ${glFlat ? 'identical every round' : 'not flat'}.`,
  ].join('\n');
  process.stdout.write(`${md}\n`);
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(join(ROOT, 'bench', 'results', 'isf-soak.md'), `${md}\n`);
  await writeFile(
    join(ROOT, 'bench', 'results', 'isf-soak.json'),
    `${JSON.stringify({ rounds: ROUNDS, warmUp: WARM_UP, rssKiBPerRound: perRound * 1024, glFlat, samples }, null, 2)}\n`,
  );
}

await main();
